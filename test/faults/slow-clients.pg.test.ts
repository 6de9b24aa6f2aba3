import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import type { RunningServer } from '../../src/server.ts';
import { spawnButik } from '../helpers/butik-process.ts';
import { processDatabase } from '../helpers/process-db.ts';
import type { ProcessDatabase } from '../helpers/process-db.ts';

/**
 * Clients that send slowly or too much, and shutting down under them, on a real listening server: every
 * answer is a problem body, a slow client is cut off, and SIGTERM ends within its grace period.
 */
let store: ProcessDatabase;
let server: RunningServer;
beforeAll(async () => {
  store = await processDatabase();
  server = await startServer(loadConfig({
    ...store.env, PORT: '0', LOG_LEVEL: 'silent', BUTIK_SEED: 'none',
    BUTIK_REQUEST_TIMEOUT_MS: '1500', BUTIK_HEADERS_TIMEOUT_MS: '1000',
  }));
});
afterAll(async () => {
  await server?.close();
  await store?.drop();
});

/** A raw TCP client: everything the server writes, until it closes the connection. */
function rawClient(url: string): { socket: Socket; received: Promise<string> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.setEncoding('utf8');
  let text = '';
  socket.on('data', (chunk: string) => { text += chunk; });
  const received = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
  return { socket, received };
}

function problemIn(response: string): Record<string, unknown> {
  const body = response.slice(response.indexOf('\r\n\r\n') + 4);
  return JSON.parse(body);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('slow clients', () => {
  it('cuts off a body that trickles in one byte at a time, with 408 request_timeout', async () => {
    const { socket, received } = rawClient(server.url);
    socket.write('POST /api/v1/tools/products.search HTTP/1.1\r\nHost: butik\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{');
    const trickle = setInterval(() => { if (!socket.destroyed) socket.write(' '); }, 300);
    try {
      const response = await received;
      expect(response).toMatch(/^HTTP\/1\.1 408 /);
      expect(response).toMatch(/content-type: application\/problem\+json/i);
      expect(problemIn(response)).toMatchObject({ status: 408, code: 'request_timeout', ok: false });
    } finally {
      clearInterval(trickle);
    }
  });

  it('cuts off headers that never end', async () => {
    const { socket, received } = rawClient(server.url);
    socket.write('POST /api/v1/tools/products.search HTTP/1.1\r\nHost: butik\r\n');
    const trickle = setInterval(() => { if (!socket.destroyed) socket.write('X-Slow: a\r\n'); }, 300);
    try {
      const response = await received;
      expect(problemIn(response)).toMatchObject({ status: 408, code: 'request_timeout' });
    } finally {
      clearInterval(trickle);
    }
  });

  it('answers oversized headers with a 431 problem', async () => {
    const response = await fetch(`${server.url}/api/v1/tools/products.search`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-padding': 'p'.repeat(20_000) }, body: '{}',
    });
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ status: 431, code: 'request_headers_too_large', ok: false, error: { code: 'request_headers_too_large' } });
  });
});

describe('shutting down', () => {
  it('finishes a request already in flight and answers the next one on that connection with a 503 problem', async () => {
    const own = await processDatabase();
    const closing = await startServer(loadConfig({ ...own.env, PORT: '0', LOG_LEVEL: 'silent', BUTIK_SEED: 'none' }));
    try {
      const { socket, received } = rawClient(closing.url);
      const body = '{"limit": 1}';
      socket.write(`POST /api/v1/tools/products.search HTTP/1.1\r\nHost: butik\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      await sleep(100);
      const closed = closing.close();
      await sleep(100);
      socket.write(body);
      socket.write(`POST /api/v1/tools/products.search HTTP/1.1\r\nHost: butik\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      await closed;
      const text = await received;
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
      expect(statuses).toEqual(['200', '503']);
      const second = text.slice(text.lastIndexOf('HTTP/1.1 503'));
      expect(second).toMatch(/retry-after: 1/i);
      expect(problemIn(second)).toMatchObject({ status: 503, code: 'service_unavailable' });
    } finally {
      await closing.close();
      await own.drop();
    }
  });

  it('exits on SIGTERM within the grace period although a slow client holds a connection open', async () => {
    const own = await processDatabase();
    const child = spawnButik(['serve'], {
      ...own.env, PORT: '0', BUTIK_SEED: 'none', BUTIK_SHUTDOWN_GRACE_MS: '1000', BUTIK_REQUEST_TIMEOUT_MS: '300000', BUTIK_HEADERS_TIMEOUT_MS: '300000',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /"msg":"butik listening"[^\n]*"url":"([^"]+)"|"url":"([^"]+)"[^\n]*"msg":"butik listening"/.exec(out);
          if (match) resolve(match[1] ?? match[2] ?? '');
        });
      });
      const { socket } = rawClient(url);
      socket.write('POST /api/v1/tools/products.search HTTP/1.1\r\nHost: butik\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{');
      await sleep(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      socket.destroy();
      expect(readFileSync(join(own.dataDir, 'master.key'), 'utf8').length).toBeGreaterThan(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await own.drop();
    }
  });
});
