import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { requestHash } from '../src/calls/idempotency.ts';
import { openDatabase } from '../src/db/client.ts';
import { idempotencyKeys } from '../src/db/schema.ts';
import { startServer } from '../src/server.ts';
import { spawnButik } from './helpers/butik-process.ts';
import { processDatabase } from './helpers/process-db.ts';
import type { ProcessDatabase } from './helpers/process-db.ts';

type LogLine = Record<string, unknown> & { msg?: string; reqId?: string };

async function post(url: string, tool: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/api/v1/tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, requestId: response.headers.get('x-request-id') ?? '', body: await response.json() };
}

describe('restart after a crash (embedded database)', () => {
  let store: ProcessDatabase;
  beforeAll(async () => { store = await processDatabase(); });
  afterAll(async () => { await store?.drop(); });

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))('lets a retry run at once when the crashed process left its Idempotency-Key claim running', async () => {
    const masterKey = 'restart-master-key-0123456789abcdefghijkl';
    const config = loadConfig({ ...store.env, PORT: '0', LOG_LEVEL: 'silent', BUTIK_SEED: 'none', BUTIK_MASTER_KEY: masterKey });
    const body = { slug: 'efter-nedbrud', name: 'Efter nedbrud' };
    // What a process that died inside the call leaves behind: a fresh claim, never completed.
    const crashed = await openDatabase({ dataDir: store.dataDir });
    await crashed.migrate();
    await crashed.db.insert(idempotencyKeys).values({
      caller: 'master', key: 'retry-me', tool: 'categories.upsert', requestHash: requestHash('categories.upsert', body),
      state: 'running', leaseUntil: new Date(Date.now() + 60_000),
    });
    await crashed.close();

    const server = await startServer(config);
    try {
      const retried = await post(server.url, 'categories.upsert', body, { authorization: `Bearer ${masterKey}`, 'idempotency-key': 'retry-me' });
      expect(retried.status).toBe(200);
      expect(retried.body.result).toMatchObject({ slug: 'efter-nedbrud', name: 'Efter nedbrud' });
    } finally {
      await server.close();
    }
  });
});

describe('startServer (in process)', () => {
  let store: ProcessDatabase;
  beforeAll(async () => { store = await processDatabase(); });
  afterAll(async () => { await store?.drop(); });

  it('generates a 0600 master key, seeds the demo store with real URLs and serves health, on PORT=0', async () => {
    const config = loadConfig({ ...store.env, PORT: '0', LOG_LEVEL: 'silent' });
    const server = await startServer(config);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.url).not.toMatch(/:0$/);
      const keyFile = join(store.dataDir, 'master.key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const masterKey = readFileSync(keyFile, 'utf8').trim();
      expect(masterKey.length).toBeGreaterThanOrEqual(32);

      const found = await post(server.url, 'products.search', { limit: 100 });
      expect(found.status).toBe(200);
      const slugs = found.body.result.map((p: { slug: string }) => p.slug);
      expect(slugs).toContain('aviator-classic');
      expect(slugs.length).toBeGreaterThanOrEqual(20);
      // Seeded after listening, so the image URLs name the port actually in use.
      for (const product of found.body.result) expect(product.firstImage).toMatch(new RegExp(`^${server.url}/images/demo/`));

      for (const path of ['/healthz', '/readyz']) {
        const response = await fetch(`${server.url}${path}`);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ ok: true });
      }
      const openapi = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
      expect(openapi.servers).toEqual([{ url: server.url }]);
      const problem = await post(server.url, 'products.get', { slug: 'nope' });
      expect(problem.body.type).toBe(`${server.url}/problems/not_found`);

      const keys = await fetch(`${server.url}/api/v1/keys`, { headers: { authorization: `Bearer ${masterKey}` } });
      expect(keys.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('reuses the master key file and does not seed twice on restart', async () => {
    const keyFile = join(store.dataDir, 'master.key');
    const before = readFileSync(keyFile, 'utf8');
    const server = await startServer(loadConfig({ ...store.env, PORT: '0', LOG_LEVEL: 'silent' }));
    try {
      expect(readFileSync(keyFile, 'utf8')).toBe(before);
      const found = await post(server.url, 'products.search', { q: 'Aviator Classic', limit: 100 });
      expect(found.body.result.filter((p: { slug: string }) => p.slug === 'aviator-classic')).toHaveLength(1);
      const categories = await post(server.url, 'categories.list', {});
      expect(categories.body.result.map((c: { slug: string }) => c.slug).filter((s: string) => s === 'solbriller')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('butik serve (spawned)', () => {
  let store: ProcessDatabase;
  beforeAll(async () => { store = await processDatabase(); });
  afterAll(async () => { await store?.drop(); });

  it('logs one JSON line per request without credentials, and exits 0 on SIGTERM', async () => {
    const child = spawnButik(['serve'], { ...store.env, PORT: '0', HOST: '127.0.0.1' });
    const lines: LogLine[] = [];
    let raw = '';
    let stderr = '';
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
        let newline = raw.indexOf('\n');
        while (newline >= 0) {
          const line = raw.slice(0, newline);
          raw = raw.slice(newline + 1);
          const parsed = JSON.parse(line) as LogLine;
          lines.push(parsed);
          if (parsed.msg === 'butik listening') resolve(String(parsed.url));
          newline = raw.indexOf('\n');
        }
      });
      child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
      child.on('exit', (code) => reject(new Error(`exited early (${code}): ${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await listening;
      const masterKey = readFileSync(join(store.dataDir, 'master.key'), 'utf8').trim();
      const keyLine = lines.find((line) => line.msg?.startsWith('master key file'));
      expect(keyLine?.path).toBe(join(store.dataDir, 'master.key'));
      await expect.poll(() => stderr).toContain(`Butik ready at ${url}  console: ${url}/admin  docs: ${url}/docs  master key: ${join(store.dataDir, 'master.key')}\n`);

      const badKey = `bk_${'A'.repeat(43)}`;
      const calls = [
        await post(url, 'products.search', { q: 'wayfarer' }),
        await post(url, 'categories.list', {}, { authorization: `Bearer ${masterKey}` }),
        await post(url, 'products.search', {}, { authorization: `Bearer ${badKey}` }),
        await post(url, 'products.search', {}, { authorization: 'Basic dXNlcjpodW50ZXIy' }),
        // Refused by the router before any hook runs; still one line.
        await post(url, '%E0%A4%A', {}),
        // A key pasted into the query string never reaches the log.
        await post(url, `products.search?token=${masterKey}&api_key=${badKey}&page=2`, {}),
      ];
      expect(calls.map((call) => call.status)).toEqual([200, 200, 401, 200, 404, 200]);
      expect(calls[0]?.body.result.length).toBeGreaterThan(0);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);

      for (const call of calls) {
        const requestLines = lines.filter((line) => line.reqId === call.requestId && line.msg === 'request');
        expect(requestLines, call.requestId).toHaveLength(1);
        expect(requestLines[0]).toMatchObject({ method: 'POST', statusCode: call.status });
      }
      expect(lines.find((line) => line.reqId === calls[5]?.requestId)?.url)
        .toBe('/api/v1/tools/products.search?token=[redacted]&api_key=[redacted]&page=2');
      expect(lines.some((line) => line.msg === 'shutting down')).toBe(true);
      const everything = lines.map((line) => JSON.stringify(line)).join('\n') + stderr;
      for (const secret of [masterKey, badKey, 'dXNlcjpodW50ZXIy', 'Bearer', 'Basic ']) expect(everything).not.toContain(secret);
      expect(everything.toLowerCase()).not.toContain('authorization');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
