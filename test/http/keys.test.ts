import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/db/schema.ts';
import { IssuedKey, KeyRecord, RevokedKey } from '../../src/schema/api-key.ts';
import { createTestApp } from '../helpers/app.ts';
import type { CallResult, TestApp } from '../helpers/app.ts';
import { createCategory, master } from '../helpers/fixtures.ts';
import { CHALLENGE, INVALID_TOKEN_CHALLENGE, expectProblem, expectValidation, send } from '../helpers/http.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const KEY = /^bk_[A-Za-z0-9_-]{43,}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

type Issued = { id: string; name: string; scopes: string[]; key: string; prefix: string; createdAt: string; expiresAt: string | null };

function keysRequest(method: 'GET' | 'POST' | 'DELETE', url: string, options: { key?: string | undefined; body?: unknown } = {}) {
  return send(t, {
    method,
    url,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.body !== undefined ? { payload: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
}

async function issue(body: Record<string, unknown>): Promise<Issued> {
  const response = await keysRequest('POST', '/api/v1/keys', { key: master.key, body });
  if (response.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(response.body)}`);
  return response.body.result;
}

/** A call with the key: 200 when it authenticates, whatever its scopes (categories.list is anonymous), 401 when not. */
function useKey(key: string): Promise<CallResult> {
  return t.call('categories.list', { includeEmpty: false }, { key });
}

async function listed(id: string) {
  const response = await keysRequest('GET', '/api/v1/keys', { key: master.key });
  return (response.body.result as Array<Record<string, unknown>>).find((entry) => entry.id === id);
}

describe('the documented shapes', () => {
  it('answers create, list, rotate and revoke exactly as the OpenAPI document describes them', async () => {
    const created = await keysRequest('POST', '/api/v1/keys', { key: master.key, body: { name: 'Shapes', scopes: ['catalog:read'] } });
    const issued = IssuedKey.parse(created.body.result);
    KeyRecord.array().parse((await keysRequest('GET', '/api/v1/keys', { key: master.key })).body.result);
    IssuedKey.parse((await keysRequest('POST', `/api/v1/keys/${issued.id}/rotate`, { key: master.key })).body.result);
    RevokedKey.parse((await keysRequest('DELETE', `/api/v1/keys/${issued.id}`, { key: master.key })).body.result);
  });
});

describe('POST /api/v1/keys', () => {
  it('creates a key with 201 and shows the secret once', async () => {
    const response = await keysRequest('POST', '/api/v1/keys', {
      key: master.key, body: { name: 'Agent', scopes: ['catalog:read', 'products:write', 'catalog:read'] },
    });
    expect(response.status).toBe(201);
    expect(response.headers['x-request-id']).toBeDefined();
    expect(Object.keys(response.body).sort()).toEqual(['ok', 'result']);
    const result: Issued = response.body.result;
    expect(Object.keys(result).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'key', 'name', 'prefix', 'scopes']);
    expect(result).toMatchObject({ name: 'Agent', scopes: ['catalog:read', 'products:write'], expiresAt: null });
    expect(result.key).toMatch(KEY);
    expect(result.key.startsWith(result.prefix)).toBe(true);
    expect(result.prefix.length).toBeLessThan(result.key.length / 2);
    expect(result.createdAt).toMatch(ISO);
  });

  it('issues a key that works at once with exactly its scopes', async () => {
    const issued = await issue({ name: 'Writer', scopes: ['categories:write'] });
    const slug = (await createCategory(t)).slug;
    expect((await t.call('categories.upsert', { slug, name: 'Renamed' }, { key: issued.key })).status).toBe(200);
    expectProblem(await t.call('products.delete', { slug: 'x', confirm: true }, { key: issued.key }), 403, 'insufficient_scope');
  });

  it('keeps expiresAt', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const issued = await issue({ name: 'Short-lived', scopes: ['catalog:read'], expiresAt });
    expect(issued.expiresAt).toBe(expiresAt);
    expect((await useKey(issued.key)).status).toBe(200);
  });

  it('rejects an unknown scope with 400 validation_failed naming it', async () => {
    const response = await keysRequest('POST', '/api/v1/keys', { key: master.key, body: { name: 'x', scopes: ['catalog:read', 'root:all'] } });
    expectValidation(response, ['scopes.1']);
  });

  it('rejects a missing name, empty scopes, a bad expiresAt and unknown fields', async () => {
    expectValidation(await keysRequest('POST', '/api/v1/keys', { key: master.key, body: { scopes: ['catalog:read'] } }), ['name']);
    expectValidation(await keysRequest('POST', '/api/v1/keys', { key: master.key, body: { name: 'x', scopes: [] } }), ['scopes']);
    expectValidation(await keysRequest('POST', '/api/v1/keys', {
      key: master.key, body: { name: 'x', scopes: ['catalog:read'], expiresAt: 'tomorrow' },
    }), ['expiresAt']);
    expectValidation(await keysRequest('POST', '/api/v1/keys', {
      key: master.key, body: { name: 'x', scopes: ['catalog:read'], admin: true },
    }), ['admin']);
  });

  it('rejects a body that is not a JSON object with 400 invalid_json', async () => {
    expectProblem(await keysRequest('POST', '/api/v1/keys', { key: master.key, body: '[1]' }), 400, 'invalid_json');
    expectProblem(await keysRequest('POST', '/api/v1/keys', { key: master.key }), 400, 'invalid_json');
  });
});

describe('GET /api/v1/keys', () => {
  it('lists keys without secrets or hashes', async () => {
    const issued = await issue({ name: 'Listed', scopes: ['orders:read'] });
    const response = await keysRequest('GET', '/api/v1/keys', { key: master.key });
    expect(response.status).toBe(200);
    const entry = (response.body.result as Array<Record<string, unknown>>).find((e) => e.id === issued.id);
    expect(entry).toEqual({
      id: issued.id, name: 'Listed', scopes: ['orders:read'], prefix: issued.prefix,
      createdAt: issued.createdAt, expiresAt: null, lastUsedAt: null, revokedAt: null,
    });
    const text = JSON.stringify(response.body);
    expect(text).not.toContain(issued.key);
    expect(text).not.toContain(createHash('sha256').update(issued.key).digest('hex'));
    expect(text).not.toContain(master.key);
  });

  it('sets lastUsedAt once the key has been used', async () => {
    const issued = await issue({ name: 'Used', scopes: ['catalog:read'] });
    expect((await listed(issued.id))?.lastUsedAt).toBeNull();
    expect((await useKey(issued.key)).status).toBe(200);
    // The write is deliberately off the request path; wait for it rather than racing it.
    let lastUsedAt: unknown = null;
    for (let attempt = 0; attempt < 50 && lastUsedAt === null; attempt += 1) {
      lastUsedAt = (await listed(issued.id))?.lastUsedAt ?? null;
      if (lastUsedAt === null) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(lastUsedAt).toMatch(ISO);
  });
});

describe('storage', () => {
  it('stores only the SHA-256 of the secret and a short prefix', async () => {
    const issued = await issue({ name: 'Stored', scopes: ['catalog:read'] });
    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, issued.id));
    expect(row?.hash).toBe(createHash('sha256').update(issued.key).digest('hex'));
    expect(row?.prefix).toBe(issued.prefix);
    const everyColumn = JSON.stringify(row);
    expect(everyColumn).not.toContain(issued.key);
    expect(everyColumn).not.toContain(issued.key.slice(issued.prefix.length));
  });
});

describe('POST /api/v1/keys/{id}/rotate', () => {
  it('issues a new secret for the same id and kills the old one at once', async () => {
    const issued = await issue({ name: 'Rotated', scopes: ['catalog:read'] });
    expect((await useKey(issued.key)).status).toBe(200);
    const response = await keysRequest('POST', `/api/v1/keys/${issued.id}/rotate`, { key: master.key });
    expect(response.status).toBe(200);
    const rotated: Issued = response.body.result;
    expect(Object.keys(rotated).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'key', 'name', 'prefix', 'scopes']);
    expect(rotated).toMatchObject({ id: issued.id, name: 'Rotated', scopes: ['catalog:read'] });
    expect(rotated.key).toMatch(KEY);
    expect(rotated.key).not.toBe(issued.key);
    const old = await useKey(issued.key);
    expectProblem(old, 401, 'unauthorized');
    expect(old.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
    expect((await useKey(rotated.key)).status).toBe(200);
  });

  it('answers an unknown id with 404 not_found', async () => {
    expectProblem(await keysRequest('POST', '/api/v1/keys/not-a-uuid/rotate', { key: master.key }), 404, 'not_found');
  });
});

describe('DELETE /api/v1/keys/{id}', () => {
  it('revokes a key: 401 afterwards, revokedAt in the list, and it cannot be rotated back to life', async () => {
    const issued = await issue({ name: 'Revoked', scopes: ['catalog:read'] });
    const response = await keysRequest('DELETE', `/api/v1/keys/${issued.id}`, { key: master.key });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.result).sort()).toEqual(['id', 'revokedAt']);
    expect(response.body.result.id).toBe(issued.id);
    expect(response.body.result.revokedAt).toMatch(ISO);
    const refused = await useKey(issued.key);
    expectProblem(refused, 401, 'unauthorized');
    expect(refused.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
    expect((await listed(issued.id))?.revokedAt).toBe(response.body.result.revokedAt);
    const again = await keysRequest('DELETE', `/api/v1/keys/${issued.id}`, { key: master.key });
    expect(again.body.result).toEqual(response.body.result);
    expectProblem(await keysRequest('POST', `/api/v1/keys/${issued.id}/rotate`, { key: master.key }), 404, 'not_found');
  });

  it('answers an unknown id with 404 not_found', async () => {
    expectProblem(await keysRequest('DELETE', '/api/v1/keys/00000000-0000-0000-0000-000000000000', { key: master.key }), 404, 'not_found');
  });
});

describe('expiry', () => {
  it('refuses to issue a key that would be born expired', async () => {
    const response = await keysRequest('POST', '/api/v1/keys', {
      key: master.key, body: { name: 'Too late', scopes: ['catalog:read'], expiresAt: '2020-01-01T00:00:00Z' },
    });
    expectValidation(response, ['expiresAt']);
    expect(response.body.errors[0].message).toBe('must lie in the future');
  });

  it('answers an expired key with 401 invalid_token', async () => {
    const issued = await issue({ name: 'Expiring', scopes: ['catalog:read'], expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await t.database.db.update(apiKeys).set({ expiresAt: new Date('2020-01-01T00:00:00Z') }).where(eq(apiKeys.id, issued.id));
    const response = await useKey(issued.key);
    expectProblem(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
    expect(response.body.detail).toMatch(/expired/);
  });
});

describe('who may manage keys', () => {
  const routes: Array<['GET' | 'POST' | 'DELETE', string, unknown]> = [
    ['POST', '/api/v1/keys', { name: 'x', scopes: ['catalog:read'] }],
    ['GET', '/api/v1/keys', undefined],
    ['POST', '/api/v1/keys/some-id/rotate', undefined],
    ['DELETE', '/api/v1/keys/some-id', undefined],
  ];

  for (const [method, url, body] of routes) {
    it(`${method} ${url}: 401 without a key, 401 with a bad one, 403 for a scoped key`, async () => {
      const anonymous = await keysRequest(method, url, { body });
      expectProblem(anonymous, 401, 'unauthorized');
      expect(anonymous.headers['www-authenticate']).toBe(CHALLENGE);
      const bad = await keysRequest(method, url, { key: 'bk_invalid', body });
      expectProblem(bad, 401, 'unauthorized');
      expect(bad.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
      const everyScope = await t.keyWith('catalog:read', 'products:write', 'categories:write', 'audit:revert', 'settings:write');
      const scoped = await keysRequest(method, url, { key: everyScope, body });
      expectProblem(scoped, 403, 'insufficient_scope');
      expect(String(scoped.headers['www-authenticate'])).toMatch(/^Bearer realm="butik", error="insufficient_scope"/);
    });
  }
});
