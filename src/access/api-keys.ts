import { hash, randomBytes } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apiKeys } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { z } from 'zod';
import type { IssuedKey, KeyRecord } from '../schema/api-key.ts';
import { toIso } from '../schema/common.ts';
import type { Channel } from '../context.ts';
import type { Actor } from './actor.ts';
import { appendAudit } from './audit-log.ts';
import type { Scope } from './scopes.ts';

/** `bk_` + 32 random bytes in base64url (43 characters). */
export const KEY_PATTERN = /^bk_[A-Za-z0-9_-]{43,}$/;

/** One-shot: every authenticated request hashes its key, and a Hash object per call cost twice as much. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
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

/**
 * Who changes a key, and through which face. Key management is no tool, but every creation, rotation and
 * revocation is still an audit entry (target type `api_key`, never the secret or its hash), so Activity shows
 * it whichever path made it. audit.revert refuses these entries: a revoked key is not brought back by undo.
 */
export type KeyAudit = { actor: Actor; channel: Channel; at: Date };

function audited(db: Db, audit: KeyAudit, tool: string, before: KeyRow | undefined, after: KeyRow) {
  return appendAudit(db, {
    ...audit,
    tool,
    record: { targetType: 'api_key', targetId: after.id, before: before ? describeKey(before) : null, after: describeKey(after) },
  });
}

export async function createKey(db: Db, input: { name: string; scopes: Scope[]; expiresAt?: Date | undefined }, audit: KeyAudit) {
  const secret = newSecret();
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(apiKeys).values({
      name: input.name,
      scopes: [...new Set(input.scopes)],
      prefix: secret.prefix,
      hash: secret.hash,
      expiresAt: input.expiresAt ?? null,
    }).returning();
    if (!row) throw new Error('key insert returned no row');
    await audited(tx, audit, 'keys.create', undefined, row);
    return issued(row, secret.key);
  });
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
export async function rotateKey(db: Db, id: string, audit: KeyAudit, changed: KeyChanged = () => {}) {
  const secret = newSecret();
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(apiKeys).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).for('update');
    const [after] = await tx.update(apiKeys).set({ hash: secret.hash, prefix: secret.prefix })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).returning();
    if (!before || !after) throw new ToolError('not_found', `No active API key with id "${id}".`);
    await audited(tx, audit, 'keys.rotate', before, after);
    return after;
  });
  changed(row.id);
  return issued(row, secret.key);
}

/** Revoking a revoked key answers as before and writes no second entry: nothing changed. */
export async function revokeKey(db: Db, id: string, audit: KeyAudit, changed: KeyChanged = () => {}) {
  const result = await db.transaction(async (tx) => {
    const [existing] = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).for('update');
    if (!existing) throw new ToolError('not_found', `No API key with id "${id}".`);
    if (existing.revokedAt) return { id, revokedAt: toIso(existing.revokedAt), changed: false };
    const [row] = await tx.update(apiKeys).set({ revokedAt: audit.at }).where(eq(apiKeys.id, id)).returning();
    if (!row) throw new Error('key update returned no row');
    await audited(tx, audit, 'keys.revoke', existing, row);
    return { id, revokedAt: toIso(row.revokedAt), changed: true };
  });
  if (result.changed) changed(id);
  return { id: result.id, revokedAt: result.revokedAt };
}
