import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey, rotateKey } from '../../src/access/api-keys.ts';
import { KEY_CACHE_TTL_MS, createAuthenticator } from '../../src/access/authenticate.ts';
import { redisKeyInvalidation } from '../../src/access/key-invalidation.ts';
import { uniqueRedisPrefix } from '../helpers/rate-limits.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { send } from '../helpers/http.ts';

/**
 * The in-process cache of key lookups (docs/behaviour.md#api-keys-and-scopes): a rotation or revocation made through an instance takes
 * effect there at once; made elsewhere (another instance, the offline CLI), within KEY_CACHE_TTL_MS.
 */
let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** The offline CLI changes keys here, as another process would. */
const BY_CLI = { actor: { kind: 'cli' }, channel: 'cli', at: new Date() } as const;
const quiet = { info() {}, warn() {}, error() {} };
const use = (key: string) => t.call('categories.list', {}, { key });

async function issue(expiresAt?: Date) {
  return createKey(t.database.db, { name: 'cached', scopes: ['catalog:read'], expiresAt }, BY_CLI);
}

describe('through this instance', () => {
  it('refuses a revoked key at once, though it was just used and cached', async () => {
    const { id, key } = await issue();
    expect((await use(key)).status).toBe(200);
    expect((await send(t, { method: 'DELETE', url: `/api/v1/keys/${id}`, headers: { authorization: `Bearer ${master.key}` } })).status).toBe(200);
    const refused = await use(key);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/revoked/);
  });

  it('refuses the old secret of a rotated key at once and accepts the new one', async () => {
    const { id, key } = await issue();
    expect((await use(key)).status).toBe(200);
    const rotated = await send(t, { method: 'POST', url: `/api/v1/keys/${id}/rotate`, headers: { authorization: `Bearer ${master.key}` } });
    expect(rotated.status).toBe(200);
    expect((await use(key)).status).toBe(401);
    expect((await use(rotated.body.result.key)).status).toBe(200);
  });
});

describe('made elsewhere', () => {
  /** A second instance's authenticator on the same database, with a clock the test moves. */
  function elsewhere() {
    let now = Date.now();
    const authenticator = createAuthenticator({ db: t.database.db, masterKey: 'm'.repeat(40), clock: () => new Date(now), log: quiet });
    return { authenticator, advance: (ms: number) => { now += ms; } };
  }

  it('honours a revocation once the cached lookup is older than the cache lifetime', async () => {
    const { id, key } = await issue();
    const other = elsewhere();
    expect((await other.authenticator.authenticate(key)).ok).toBe(true);
    await revokeKey(t.database.db, id, BY_CLI);
    other.advance(KEY_CACHE_TTL_MS / 2);
    expect((await other.authenticator.authenticate(key)).ok).toBe(true);
    other.advance(KEY_CACHE_TTL_MS / 2);
    expect(await other.authenticator.authenticate(key)).toEqual({ ok: false, detail: 'The API key has been revoked.' });
  });

  it('honours a rotation once the cached lookup is older than the cache lifetime', async () => {
    const { id, key } = await issue();
    const other = elsewhere();
    expect((await other.authenticator.authenticate(key)).ok).toBe(true);
    const rotated = await rotateKey(t.database.db, id, BY_CLI);
    expect((await other.authenticator.authenticate(rotated.key)).ok).toBe(true);
    other.advance(KEY_CACHE_TTL_MS);
    expect((await other.authenticator.authenticate(key)).ok).toBe(false);
  });

  it('checks expiry on every call, cached or not', async () => {
    const { key } = await issue(new Date(Date.now() + KEY_CACHE_TTL_MS / 3));
    const other = elsewhere();
    expect((await other.authenticator.authenticate(key)).ok).toBe(true);
    other.advance(KEY_CACHE_TTL_MS / 2);
    expect(await other.authenticator.authenticate(key)).toEqual({ ok: false, detail: 'The API key has expired.' });
  });

  it('forgets a key on request, so the next call reads the database', async () => {
    const { id, key } = await issue();
    const other = elsewhere();
    expect((await other.authenticator.authenticate(key)).ok).toBe(true);
    await revokeKey(t.database.db, id, BY_CLI);
    other.authenticator.forget(id);
    expect((await other.authenticator.authenticate(key)).ok).toBe(false);
  });
});

describe.runIf(process.env.REDIS_URL)('announced over Redis (REDIS_URL)', () => {
  it('drops a key revoked or rotated on another instance at once, long before the cache would expire', async () => {
    const url = process.env.REDIS_URL ?? '';
    const prefix = uniqueRedisPrefix();
    const here = redisKeyInvalidation({ url, prefix, log: quiet });
    const there = redisKeyInvalidation({ url, prefix, log: quiet });
    // The clock of this instance stands still: only the announcement can make it read the database again.
    const frozen = new Date();
    const other = createAuthenticator({ db: t.database.db, masterKey: 'm'.repeat(40), clock: () => frozen, log: quiet, invalidation: there });
    const revoking = createAuthenticator({ db: t.database.db, masterKey: 'm'.repeat(40), clock: () => new Date(), log: quiet, invalidation: here });
    try {
      await there.listening();
      const revoked = await issue();
      const rotated = await issue();
      for (const { key } of [revoked, rotated]) expect((await other.authenticate(key)).ok).toBe(true);

      await revokeKey(t.database.db, revoked.id, BY_CLI, revoking.forget);
      await rotateKey(t.database.db, rotated.id, BY_CLI, revoking.forget);

      await expect.poll(async () => (await other.authenticate(revoked.key)).ok, { timeout: 2_000 }).toBe(false);
      await expect.poll(async () => (await other.authenticate(rotated.key)).ok, { timeout: 2_000 }).toBe(false);
      expect(await other.authenticate(revoked.key)).toEqual({ ok: false, detail: 'The API key has been revoked.' });
    } finally {
      await Promise.all([here.close(), there.close()]);
    }
  });
});
