import { connect, createServer } from 'node:net';
import type { Socket } from 'node:net';

export type TcpRelay = { port: number; close(): Promise<void> };

/**
 * A TCP relay to a server (Redis) that a test can cut and restore on the same port, to make the server
 * "die" and "come back" without touching the shared one.
 */
export async function startTcpRelay(target: { host: string; port: number }, listenPort = 0): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
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
    close: () => (closed ??= new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    })),
  };
}
