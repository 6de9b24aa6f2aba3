import { connect, createServer } from 'node:net';
import type { Socket } from 'node:net';

export type TcpRelay = {
  port: number;
  /** Stops forwarding in both directions without closing anything: a server that hangs, not one that died. */
  freeze(): void;
  /** Forwards again, including what was held back while frozen. */
  thaw(): void;
  /** Stops forwarding on the connections open now, for good, and forwards new ones: a firewall that forgot them. */
  forgetOpen(): void;
  close(): Promise<void>;
};

/**
 * A TCP relay to a server (Redis, PostgreSQL) that a test can cut and restore on the same port, to make the server
 * "die" and "come back" without touching the shared one.
 */
export async function startTcpRelay(target: { host: string; port: number }, listenPort = 0): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const forgotten = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      forgotten.delete(socket);
    });
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    if (frozen) {
      client.pause();
      upstream.pause();
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('relay has no port');
  let closed: Promise<void> | undefined;
  return {
    port: address.port,
    freeze() {
      frozen = true;
      for (const socket of sockets) socket.pause();
    },
    thaw() {
      frozen = false;
      for (const socket of sockets) if (!forgotten.has(socket)) socket.resume();
    },
    forgetOpen() {
      for (const socket of sockets) {
        socket.pause();
        forgotten.add(socket);
      }
    },
    close: () => (closed ??= new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    })),
  };
}

/** A relay to the PostgreSQL server `url` names, and the same url through the relay. */
export async function relayPostgres(url: string): Promise<{ relay: TcpRelay; url: string }> {
  const target = new URL(url);
  const relay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
  const via = new URL(target);
  via.hostname = '127.0.0.1';
  via.port = String(relay.port);
  return { relay, url: via.toString() };
}
