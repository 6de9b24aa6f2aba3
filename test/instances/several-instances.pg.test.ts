import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance } from '../helpers/instances.ts';
import type { Instance } from '../helpers/instances.ts';
import { uniqueRedisPrefix } from '../helpers/rate-limits.ts';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const MASTER_KEY = `instances-master-${randomBytes(24).toString('hex')}`;

async function callTool(instance: Instance, tool: string, body: unknown, key?: string) {
  const response = await fetch(`${instance.url}/api/v1/tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** A database of its own for this run, so the instances migrate and seed exactly as in production. */
function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

describe.runIf(DATABASE_URL && REDIS_URL)('several instances on one PostgreSQL and one Redis', () => {
  const dbName = `butik_instances_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'butik-instances-'));
  const instances: Instance[] = [];
  let admin: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`create database "${dbName}"`);
    const env = {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: databaseUrl(DATABASE_URL ?? '', dbName),
      REDIS_URL: REDIS_URL ?? '',
      BUTIK_REDIS_PREFIX: uniqueRedisPrefix(),
      BUTIK_MASTER_KEY: MASTER_KEY,
      BUTIK_DATA_DIR: dataDir,
      BUTIK_SEED: 'demo',
      LOG_LEVEL: 'info',
    };
    // Started together: they race to migrate and seed the same empty database, as a deployment would.
    const started = await Promise.allSettled([startInstance('a', env), startInstance('b', env)]);
    for (const result of started) if (result.status === 'fulfilled') instances.push(result.value);
    for (const result of started) if (result.status === 'rejected') throw result.reason;
  }, 60_000);

  afterAll(async () => {
    try {
      for (const instance of instances) if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
      await Promise.all(instances.map((instance) => instance.exited));
    } finally {
      await admin?.query(`drop database if exists "${dbName}" with (force)`);
      await admin?.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serve one store: a key made through one works on the other, and a write through one is read through the other', async () => {
    const [a, b] = instances;
    if (!a || !b) throw new Error('instances missing');
    const created = await fetch(`${a.url}/api/v1/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${MASTER_KEY}` },
      body: JSON.stringify({ name: 'two instances', scopes: ['categories:write', 'categories:read'] }),
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()).result;

    const written = await callTool(b, 'categories.upsert', { slug: 'fra-b', name: 'Skrevet via B' }, key);
    expect(written.status).toBe(200);
    expect(written.body.result).toMatchObject({ slug: 'fra-b', name: 'Skrevet via B' });
    const read = await callTool(a, 'categories.list', {}, key);
    expect(read.status).toBe(200);
    expect(read.body.result).toEqual(expect.arrayContaining([expect.objectContaining({ slug: 'fra-b', name: 'Skrevet via B' })]));
    // The demo store was seeded once, although both instances started on the empty database.
    expect(read.body.result.filter((c: { slug: string }) => c.slug === 'solbriller')).toHaveLength(1);

    // Both calls were counted in the one window of the new key, through B and then through A.
    expect(written.headers.get('ratelimit')).toMatch(/^"key";r=599;t=\d+$/);
    expect(read.headers.get('ratelimit')).toMatch(/^"key";r=598;t=\d+$/);
  });

  it('share rate-limit counters: the 61st anonymous request across both gets 429', async () => {
    const [a, b] = instances;
    if (!a || !b) throw new Error('instances missing');
    for (let i = 0; i < 60; i += 1) {
      const response = await callTool(i % 2 === 0 ? a : b, 'products.search', { limit: 1 });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"anon";r=${59 - i};t=\\d+$`));
    }
    const refused = await callTool(a, 'products.search', { limit: 1 });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await callTool(b, 'products.search', { limit: 1 })).status).toBe(429);

    for (const instance of instances) {
      const ready = await fetch(`${instance.url}/readyz`);
      expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { ok: true, rateLimits: 'redis' } });
    }
  });

  it('honour a pause made through one on the other within a second, and a resume made through the other', async () => {
    const [a, b] = instances;
    if (!a || !b) throw new Error('instances missing');
    const owner = { 'content-type': 'application/json', authorization: `Bearer ${MASTER_KEY}` };
    const created = await fetch(`${a.url}/api/v1/keys`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'paused on a', scopes: ['orders:read'] }) });
    const { key } = (await created.json()).result;
    // B has looked the key up, so its cache holds it as not paused.
    expect((await callTool(b, 'orders.list', {}, key)).status).toBe(200);

    const paused = await fetch(`${a.url}/api/v1/commands/keys.pause`, { method: 'POST', headers: owner, body: JSON.stringify({ key: 'paused on a' }) });
    expect(paused.status).toBe(200);
    expect((await callTool(a, 'orders.list', {}, key)).body.code).toBe('agent_paused');
    await expect.poll(async () => (await callTool(b, 'orders.list', {}, key)).body.code).toBe('agent_paused');

    await fetch(`${b.url}/api/v1/commands/keys.resume`, { method: 'POST', headers: owner, body: JSON.stringify({ key: 'paused on a' }) });
    await expect.poll(async () => (await callTool(a, 'orders.list', {}, key)).status).toBe(200);
  });

  it('stop gracefully on SIGTERM with exit code 0', async () => {
    for (const instance of instances) instance.child.kill('SIGTERM');
    expect(await Promise.all(instances.map((instance) => instance.exited))).toEqual([0, 0]);
  });
});
