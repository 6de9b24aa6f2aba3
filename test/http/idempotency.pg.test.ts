import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHash } from '../../src/calls/idempotency.ts';
import { auditEntries, idempotencyKeys, products } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { CallOptions, TestApp } from '../helpers/app.ts';
import { createCategory, createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';

let t: TestApp;
let categorySlug: string;
beforeAll(async () => {
  t = await createTestApp();
  categorySlug = (await createCategory(t)).slug;
});
afterAll(async () => { await t?.close(); });

let keyCounter = 0;
const newKey = () => `retry-${process.pid}-${++keyCounter}`;

const withKey = (idempotencyKey: string, options: CallOptions = master): CallOptions =>
  ({ ...options, headers: { ...options.headers, 'idempotency-key': idempotencyKey } });

/** The raw response text, for byte-for-byte comparisons (t.call parses it). */
async function rawCall(tool: string, body: unknown, idempotencyKey: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/tools/${tool}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${master.key}`, 'idempotency-key': idempotencyKey },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, headers: response.headers, text: response.body };
}

function productBody(fields: Record<string, unknown> = {}) {
  return { slug: uniqueSlug('idem'), name: 'Retry Frame', description: 'Created once, however often it is sent.', priceDkk: 99900, stock: 5, categorySlug, ...fields };
}

async function productCreates(slug: string): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(products).where(eq(products.slug, slug));
  return row?.n ?? 0;
}

async function auditCount(tool: string, targetId: string): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(auditEntries)
    .where(and(eq(auditEntries.tool, tool), eq(auditEntries.targetId, targetId)));
  return row?.n ?? 0;
}

async function storedKeys(idempotencyKey: string): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.key, idempotencyKey));
  return row?.n ?? 0;
}

describe('Idempotency-Key replays', () => {
  it('replays a success byte for byte with Idempotent-Replayed and a new X-Request-Id, running the tool once', async () => {
    const key = newKey();
    const body = productBody();
    const first = await rawCall('products.create', body, key);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await rawCall('products.create', body, key);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['x-request-id']).toEqual(expect.any(String));
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);

    const { id } = JSON.parse(first.text).result;
    expect(await productCreates(body.slug)).toBe(1);
    expect(await auditCount('products.create', id)).toBe(1);
  });

  it('does not run categories.upsert twice', async () => {
    const key = newKey();
    const body = { slug: uniqueSlug('cat'), name: 'Skibriller' };
    const first = await t.call('categories.upsert', body, withKey(key));
    const again = await t.call('categories.upsert', body, withKey(key));
    expect(again.body).toEqual(first.body);
    expect(await auditCount('categories.upsert', first.body.result.id)).toBe(1);
  });

  it('treats the same body with its members in another order as the same request', async () => {
    const key = newKey();
    const body = { slug: uniqueSlug('cat'), name: 'Læsebriller' };
    await t.call('categories.upsert', body, withKey(key));
    const reordered = await t.call('categories.upsert', { name: body.name, slug: body.slug }, withKey(key));
    expect(reordered.status).toBe(200);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
  });

  it('replays a 404 problem with the instance of the original request', async () => {
    const key = newKey();
    const slug = uniqueSlug('later');
    const body = { slug, patch: { stock: 1 } };
    const first = await t.call('products.update', body, withKey(key));
    expect(first.status).toBe(404);
    expect(first.body.instance).toBe(`urn:butik:request:${String(first.headers['x-request-id'])}`);

    await createProduct(t, { slug });
    const again = await t.call('products.update', body, withKey(key));
    expect(again.status).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(again.body).toEqual(first.body);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('replays 409 and 422 outcomes too', async () => {
    const existing = await createProduct(t);
    const conflictKey = newKey();
    const conflict = await t.call('products.create', existing.body, withKey(conflictKey));
    expect(conflict.status).toBe(409);
    const conflictAgain = await t.call('products.create', existing.body, withKey(conflictKey));
    expect(conflictAgain).toMatchObject({ status: 409, body: conflict.body });
    expect(conflictAgain.headers['idempotent-replayed']).toBe('true');

    const immutableKey = newKey();
    const patch = { slug: existing.slug, patch: { slug: 'other-slug' } };
    const immutable = await t.call('products.update', patch, withKey(immutableKey));
    expect(immutable.status).toBe(422);
    const immutableAgain = await t.call('products.update', patch, withKey(immutableKey));
    expect(immutableAgain).toMatchObject({ status: 422, body: immutable.body });
    expect(immutableAgain.headers['idempotent-replayed']).toBe('true');
  });
});

describe('Idempotency-Key misuse', () => {
  it('answers 422 idempotency_key_reused for the same key with another body or another tool', async () => {
    const key = newKey();
    const body = productBody();
    expect((await t.call('products.create', body, withKey(key))).status).toBe(200);

    const otherBody = await t.call('products.create', { ...body, stock: 6 }, withKey(key));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.code).toBe('idempotency_key_reused');
    const otherTool = await t.call('products.get', { slug: body.slug }, withKey(key));
    expect(otherTool.status).toBe(422);
    expect(otherTool.body.code).toBe('idempotency_key_reused');
    expect(await productCreates(body.slug)).toBe(1);
  });

  it('stores nothing for a 400 validation failure, so the key can be used again', async () => {
    const key = newKey();
    const body = productBody();
    const invalid = await t.call('products.create', { ...body, priceDkk: -1 }, withKey(key));
    expect(invalid.status).toBe(400);
    expect(await storedKeys(key)).toBe(0);
    const fixed = await t.call('products.create', body, withKey(key));
    expect(fixed.status).toBe(200);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('stores nothing for 401 and 403', async () => {
    const key = newKey();
    expect((await t.call('products.create', productBody(), withKey(key, {}))).status).toBe(401);
    const reader = await t.keyWith('catalog:read');
    expect((await t.call('products.create', productBody(), withKey(key, { key: reader }))).status).toBe(403);
    expect(await storedKeys(key)).toBe(0);
  });

  it('rejects an empty, overlong or non-printable Idempotency-Key with 400', async () => {
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'nøgle']) {
      const response = await t.call('categories.upsert', { slug: uniqueSlug('cat'), name: 'Ugyldig' }, withKey(bad));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_failed');
      expect(response.body.errors).toEqual([{ path: 'Idempotency-Key', message: expect.any(String) }]);
    }
    const longest = await t.call('categories.upsert', { slug: uniqueSlug('cat'), name: 'Gyldig' }, withKey('k'.repeat(255)));
    expect(longest.status).toBe(200);
  });

  it('answers 409 idempotency_key_in_use while the first request still runs', async () => {
    const key = newKey();
    const body = productBody();
    await t.database.db.insert(idempotencyKeys).values({
      caller: 'master', key, tool: 'products.create', requestHash: requestHash('products.create', body), state: 'running',
    });
    const busy = await t.call('products.create', body, withKey(key));
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('idempotency_key_in_use');
    // A claim without a lease counts as leased for 15 s from its creation.
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(14);
    expect(Number(busy.headers['retry-after'])).toBeLessThanOrEqual(15);
    expect(await productCreates(body.slug)).toBe(0);

    const otherBody = await t.call('products.create', { ...body, stock: 1 }, withKey(key));
    expect(otherBody.body.code).toBe('idempotency_key_reused');
  });

  it('takes over a running claim at once when its owner stopped renewing the lease', async () => {
    const key = newKey();
    const body = productBody();
    await t.database.db.insert(idempotencyKeys).values({
      caller: 'master', key, tool: 'products.create', requestHash: requestHash('products.create', body), state: 'running',
      leaseUntil: new Date(Date.now() - 1_000),
    });
    const retried = await t.call('products.create', body, withKey(key));
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await productCreates(body.slug)).toBe(1);
  });

  it('takes over a running entry abandoned for more than five minutes', async () => {
    const key = newKey();
    const body = productBody();
    await t.database.db.insert(idempotencyKeys).values({
      caller: 'master', key, tool: 'products.create', requestHash: requestHash('products.create', body), state: 'running',
      createdAt: new Date(Date.now() - 10 * 60 * 1000),
    });
    expect((await t.call('products.create', body, withKey(key))).status).toBe(200);
    expect(await productCreates(body.slug)).toBe(1);
  });
});

describe('Idempotency-Key scope', () => {
  it('keeps the keys of two API keys apart', async () => {
    const key = newKey();
    const first = await t.keyWith('products:write');
    const second = await t.keyWith('products:write');
    const a = await t.call('products.create', productBody(), withKey(key, { key: first }));
    const b = await t.call('products.create', productBody(), withKey(key, { key: second }));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.result.id).not.toBe(a.body.result.id);
  });

  it('scopes anonymous callers by client IP', async () => {
    const key = newKey();
    const slug = uniqueSlug('anon');
    const fromA = await t.call('products.get', { slug }, withKey(key, { ip: '203.0.113.1' }));
    expect(fromA.status).toBe(404);
    await createProduct(t, { slug });

    const replayedToA = await t.call('products.get', { slug }, withKey(key, { ip: '203.0.113.1' }));
    expect(replayedToA.status).toBe(404);
    expect(replayedToA.headers['idempotent-replayed']).toBe('true');
    const fromB = await t.call('products.get', { slug }, withKey(key, { ip: '203.0.113.2' }));
    expect(fromB.status).toBe(200);
    expect(fromB.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('Idempotency-Key under concurrency', () => {
  it('creates exactly one product from ten concurrent identical calls', async () => {
    const key = newKey();
    const body = productBody();
    const responses = await Promise.all(Array.from({ length: 10 }, () => t.call('products.create', body, withKey(key))));
    const succeeded = responses.filter((r) => r.status === 200);
    const busy = responses.filter((r) => r.status === 409);
    expect(succeeded.length + busy.length).toBe(10);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(succeeded.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(new Set(succeeded.map((r) => r.body.result.id)).size).toBe(1);
    expect(busy.every((r) => r.body.code === 'idempotency_key_in_use')).toBe(true);
    expect(await productCreates(body.slug)).toBe(1);
    expect(await auditCount('products.create', succeeded[0]?.body.result.id)).toBe(1);
  });
});
