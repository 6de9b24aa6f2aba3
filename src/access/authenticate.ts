import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apiKeys } from '../db/schema.ts';
import type { Log } from '../log.ts';
import type { Actor } from './actor.ts';
import { pauseOf, pausedDetail } from './agent-pauses.ts';
import { KEY_PATTERN, hashSecret } from './api-keys.ts';
import { localKeyInvalidation } from './key-invalidation.ts';
import type { KeyInvalidation } from './key-invalidation.ts';
import { Scope } from './scopes.ts';

export type Credentials =
  /** No Authorization header, or one that is not Bearer: no key at all. */
  | { kind: 'none' }
  | { kind: 'bearer'; token: string };

export type Authentication =
  | { ok: true; actor: Actor }
  /** `paused`: the credential is good, but a person has paused its agent (access/agent-pauses.ts). */
  | { ok: false; detail: string; paused?: boolean };

const BEARER = /^Bearer(?:\s+(.*))?$/i;
/** lastUsedAt is a hint, not a log: write it at most this often per key. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function readCredentials(header: string | undefined): Credentials {
  const match = header?.trim().match(BEARER);
  if (!match) return { kind: 'none' };
  return { kind: 'bearer', token: (match[1] ?? '').trim() };
}

/**
 * Where a credential is presented. An OAuth access token is accepted only by the protected resource it was
 * granted for (its audience, RFC 8707); everywhere else (no audience) it is no credential at all, and is
 * answered exactly as any other unknown token.
 */
export type Presentation = { audience?: string };

export type Authenticator = {
  authenticate(token: string, presentation?: Presentation): Promise<Authentication>;
  /**
   * Drops what the cache knows about a key, here and (through `invalidation`) on every other instance, so a
   * rotation or revocation takes effect at once. Without a shared channel, other instances see it when their
   * entry expires (KEY_CACHE_TTL_MS).
   */
  forget(keyId: string): void;
};

/**
 * How long a looked-up key is trusted without asking the database again: a revocation or rotation made on
 * another instance (or by the offline CLI) is honoured here within this time (docs/behaviour.md#api-keys-and-scopes). Cached because the
 * key lookup is on every authenticated request's path.
 */
export const KEY_CACHE_TTL_MS = 3_000;
/** Bounds the memory a flood of distinct valid keys can take; the oldest entries go first. */
const KEY_CACHE_MAX = 10_000;

type KeyRow = typeof apiKeys.$inferSelect;
type Cached = { row: KeyRow; scopes: ReadonlySet<Scope>; fetchedAt: number };

function scopesOf(row: KeyRow): ReadonlySet<Scope> {
  return new Set(row.scopes.flatMap((scope) => {
    const parsed = Scope.safeParse(scope);
    return parsed.success ? [parsed.data] : [];
  }));
}

export function createAuthenticator(options: {
  db: Db;
  masterKey: string;
  clock: () => Date;
  log: Log;
  cacheTtlMs?: number;
  /**
   * OAuth access tokens, checked against the audience of the place they are presented at: undefined when the
   * token is not one, then it is tried as an API key.
   */
  verifyOAuthToken?: (token: string, audience: string) => Promise<Authentication | undefined>;
  invalidation?: KeyInvalidation;
}): Authenticator {
  const masterHash = Buffer.from(hashSecret(options.masterKey), 'hex');
  const ttl = options.cacheTtlMs ?? KEY_CACHE_TTL_MS;
  const lastUsedWritten = new Map<string, number>();
  /** By secret hash. Only keys that exist are cached: an unknown token never takes memory. */
  const cache = new Map<string, Cached>();
  /** Bumped by drop(): a lookup that started before a rotation or revocation must not cache what it read. */
  let generation = 0;
  const invalidation = options.invalidation ?? localKeyInvalidation;

  function drop(keyId: string): void {
    generation += 1;
    for (const [hash, entry] of cache) if (entry.row.id === keyId) cache.delete(hash);
  }
  invalidation.subscribe(drop);

  function touch(keyId: string, now: Date): void {
    const previous = lastUsedWritten.get(keyId) ?? 0;
    if (now.getTime() - previous < LAST_USED_RESOLUTION_MS) return;
    lastUsedWritten.set(keyId, now.getTime());
    options.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, keyId))
      .catch((error: unknown) => options.log.warn({ err: error, keyId }, 'could not record lastUsedAt'));
  }

  async function lookup(hash: string, now: number): Promise<Cached | undefined> {
    const hit = cache.get(hash);
    if (hit && now - hit.fetchedAt < ttl) return hit;
    const started = generation;
    const [row] = await options.db.select().from(apiKeys).where(eq(apiKeys.hash, hash));
    cache.delete(hash);
    if (!row) return undefined;
    const entry = { row, scopes: scopesOf(row), fetchedAt: now };
    if (started === generation) {
      cache.set(hash, entry);
      if (cache.size > KEY_CACHE_MAX) cache.delete(cache.keys().next().value ?? hash);
    }
    return entry;
  }

  /** The pause check rides on the same in-memory state as the shop settings: no database round trip per call. */
  async function unlessPaused(actor: Actor): Promise<Authentication> {
    const pause = await pauseOf(options.db, actor);
    return pause ? { ok: false, detail: pausedDetail(pause), paused: true } : { ok: true, actor };
  }

  return {
    async authenticate(token, presentation = {}) {
      if (!token) return { ok: false, detail: 'The Authorization header names Bearer but carries no key.' };
      const hash = hashSecret(token);
      if (timingSafeEqual(Buffer.from(hash, 'hex'), masterHash)) return { ok: true, actor: { kind: 'master' } };
      const { audience } = presentation;
      const keyShaped = KEY_PATTERN.test(token);
      if (!keyShaped && audience !== undefined) {
        const viaOAuth = await options.verifyOAuthToken?.(token, audience);
        if (viaOAuth) return viaOAuth.ok ? unlessPaused(viaOAuth.actor) : viaOAuth;
      }
      // A token of the wrong shape cannot be a key: answer without touching the database.
      if (!keyShaped) return { ok: false, detail: 'The API key is malformed.' };
      const now = options.clock();
      const found = await lookup(hash, now.getTime());
      if (!found) return { ok: false, detail: 'The API key is not known.' };
      const { row } = found;
      if (row.revokedAt) return { ok: false, detail: 'The API key has been revoked.' };
      if (row.expiresAt && row.expiresAt <= now) return { ok: false, detail: 'The API key has expired.' };
      touch(row.id, now);
      return unlessPaused({ kind: 'key', keyId: row.id, name: row.name, scopes: found.scopes });
    },
    forget(keyId) {
      drop(keyId);
      void invalidation.publish(keyId);
    },
  };
}
