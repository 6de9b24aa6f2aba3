import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apiKeys } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { z } from 'zod';
import type { IssuedKey, KeyRecord } from '../schema/api-key.ts';
import { toIso } from '../schema/common.ts';
import type { Scope } from './scopes.ts';

/** `bk_` + 32 random bytes in base64url (43 characters). */
export const KEY_PATTERN = /^bk_[A-Za-z0-9_-]{43,}$/;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function newSecret(): { key: string; prefix: string; hash: string } {
  const key = `bk_${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, 10), hash: hashSecret(key) };
}

type KeyRow = typeof apiKeys.$inferSelect;

export function describeKey(row: KeyRow): z.output<typeof KeyRecord> {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    createdAt: toIso(row.createdAt),
    expiresAt: toIso(row.expiresAt),
    lastUsedAt: toIso(row.lastUsedAt),
    revokedAt: toIso(row.revokedAt),
  };
}

function issued(row: KeyRow, key: string): z.output<typeof IssuedKey> {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    key,
    prefix: row.prefix,
    createdAt: toIso(row.createdAt),
    expiresAt: toIso(row.expiresAt),
  };
}

export async function createKey(db: Db, input: { name: string; scopes: Scope[]; expiresAt?: Date | undefined }) {
  const secret = newSecret();
  const [row] = await db.insert(apiKeys).values({
    name: input.name,
    scopes: [...new Set(input.scopes)],
    prefix: secret.prefix,
    hash: secret.hash,
    expiresAt: input.expiresAt ?? null,
  }).returning();
  if (!row) throw new Error('key insert returned no row');
  return issued(row, secret.key);
}

export async function listKeys(db: Db) {
  const rows = await db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  return rows.map(describeKey);
}

/**
 * Told the id of a key whose secret or validity has just changed (stored and committed), so that caches of
 * key lookups (createAuthenticator) drop it at once. The old secret is dead at once.
 */
export type KeyChanged = (keyId: string) => void;

/** A new secret for the same key id; the old one stops working at once. */
export async function rotateKey(db: Db, id: string, changed: KeyChanged = () => {}) {
  const secret = newSecret();
  const [row] = await db.update(apiKeys).set({ hash: secret.hash, prefix: secret.prefix })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).returning();
  if (!row) throw new ToolError('not_found', `No active API key with id "${id}".`);
  changed(row.id);
  return issued(row, secret.key);
}

export async function revokeKey(db: Db, id: string, now: Date, changed: KeyChanged = () => {}) {
  const [existing] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  if (!existing) throw new ToolError('not_found', `No API key with id "${id}".`);
  if (existing.revokedAt) return { id, revokedAt: toIso(existing.revokedAt) };
  const [row] = await db.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, id)).returning();
  changed(id);
  return { id, revokedAt: toIso(row?.revokedAt ?? now) };
}
