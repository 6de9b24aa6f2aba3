import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apiKeys } from '../db/schema.ts';
import type { Log } from '../tools/context.ts';
import type { Actor } from './actor.ts';
import { KEY_PATTERN, hashSecret } from './api-keys.ts';
import { Scope } from './scopes.ts';

export type Credentials =
  /** No Authorization header, or one that is not Bearer (CONTRACT §11). */
  | { kind: 'none' }
  | { kind: 'bearer'; token: string };

export type Authentication =
  | { ok: true; actor: Actor }
  | { ok: false; detail: string };

const BEARER = /^Bearer(?:\s+(.*))?$/i;
/** lastUsedAt is a hint, not a log: write it at most this often per key. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function readCredentials(header: string | undefined): Credentials {
  const match = header?.trim().match(BEARER);
  if (!match) return { kind: 'none' };
  return { kind: 'bearer', token: (match[1] ?? '').trim() };
}

export type Authenticator = {
  authenticate(token: string): Promise<Authentication>;
};

export function createAuthenticator(options: { db: Db; masterKey: string; clock: () => Date; log: Log }): Authenticator {
  const masterHash = Buffer.from(hashSecret(options.masterKey), 'hex');
  const lastUsedWritten = new Map<string, number>();

  function touch(keyId: string, now: Date): void {
    const previous = lastUsedWritten.get(keyId) ?? 0;
    if (now.getTime() - previous < LAST_USED_RESOLUTION_MS) return;
    lastUsedWritten.set(keyId, now.getTime());
    options.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, keyId))
      .catch((error: unknown) => options.log.warn({ err: error, keyId }, 'could not record lastUsedAt'));
  }

  return {
    async authenticate(token) {
      if (!token) return { ok: false, detail: 'The Authorization header names Bearer but carries no key.' };
      const hash = hashSecret(token);
      if (timingSafeEqual(Buffer.from(hash, 'hex'), masterHash)) return { ok: true, actor: { kind: 'master' } };
      // A token of the wrong shape cannot be a key: answer without touching the database.
      if (!KEY_PATTERN.test(token)) return { ok: false, detail: 'The API key is malformed.' };
      const [row] = await options.db.select().from(apiKeys).where(eq(apiKeys.hash, hash));
      const now = options.clock();
      if (!row) return { ok: false, detail: 'The API key is not known.' };
      if (row.revokedAt) return { ok: false, detail: 'The API key has been revoked.' };
      if (row.expiresAt && row.expiresAt <= now) return { ok: false, detail: 'The API key has expired.' };
      touch(row.id, now);
      const scopes = new Set(row.scopes.flatMap((scope) => {
        const parsed = Scope.safeParse(scope);
        return parsed.success ? [parsed.data] : [];
      }));
      return { ok: true, actor: { kind: 'key', keyId: row.id, name: row.name, scopes } };
    },
  };
}
