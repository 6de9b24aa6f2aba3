import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { configure } from 'safe-stable-stringify';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';

const RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * A running claim is a lease its owner renews while the call works. A process that dies (or a transaction
 * that never commits) stops renewing, so a retry may take the key over LEASE_MS later at the latest.
 */
const LEASE_MS = 15_000;
const RENEW_EVERY_MS = 5_000;

/** An answer as idempotency keeps it: the status and the exact text a replay gives back. */
export type StoredAnswer = { status: number; text: string };

/** Only executed calls are replayable; 400, 401, 403, 429 and 5xx are not stored. */
function storable(status: number): boolean {
  return (status >= 200 && status < 300) || status === 404 || status === 409 || status === 422;
}

/** Key order does not make two bodies different requests; bodies are parsed JSON, depth-capped at the edge. */
const canonical = configure({ deterministic: true, strict: true });

export function requestHash(tool: string, body: unknown): string {
  return createHash('sha256').update(tool).update('\0').update(canonical(body) ?? 'null').digest('hex');
}

export type IdempotentCall = {
  caller: string;
  key: string;
  tool: string;
  body: unknown;
  now: Date;
};

/**
 * Runs `execute` at most once per (caller, key). The claim is a plain INSERT … ON CONFLICT DO NOTHING,
 * committed before the tool's own transaction, so ten concurrent retries yield one execution. A replay is
 * `restore`d from the stored text, so only replays parse it.
 */
export async function runIdempotent<T extends StoredAnswer>(
  db: Db,
  call: IdempotentCall,
  execute: () => Promise<T>,
  restore: (stored: StoredAnswer) => T,
): Promise<T & { replayed: boolean }> {
  const hash = requestHash(call.tool, call.body);
  const claimed = await claim(db, call, hash);
  if (!claimed) {
    const [existing] = await db.select().from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.caller, call.caller), eq(idempotencyKeys.key, call.key)));
    if (!existing) return runIdempotent(db, call, execute, restore);
    if (existing.tool !== call.tool || existing.requestHash !== hash) {
      throw new ToolError('idempotency_key_reused',
        `The idempotency key "${call.key}" was first used for another request (${existing.tool} with different arguments).`);
    }
    if (existing.state === 'running' || existing.responseStatus === null || existing.responseBody === null) {
      throw new ToolError('idempotency_key_in_use', `A request with the idempotency key "${call.key}" is still running.`, {
        retryAfter: secondsUntil(leaseEnd(existing), call.now),
      });
    }
    return { ...restore({ status: existing.responseStatus, text: existing.responseBody }), replayed: true };
  }

  let response: T | undefined;
  const where = and(eq(idempotencyKeys.caller, call.caller), eq(idempotencyKeys.key, call.key));
  const started = Date.now();
  const renewal = setInterval(() => {
    const leaseUntil = new Date(call.now.getTime() + (Date.now() - started) + LEASE_MS);
    db.update(idempotencyKeys).set({ leaseUntil }).where(and(where, eq(idempotencyKeys.state, 'running'))).catch(() => {
      // A renewal that fails only shortens the lease; the call itself goes on.
    });
  }, RENEW_EVERY_MS);
  renewal.unref();
  try {
    response = await execute();
    return { ...response, replayed: false };
  } finally {
    clearInterval(renewal);
    if (response && storable(response.status)) {
      await db.update(idempotencyKeys)
        .set({ state: 'done', responseStatus: response.status, responseBody: response.text }).where(where);
    } else {
      await db.delete(idempotencyKeys).where(where);
    }
  }
}

async function claim(db: Db, call: IdempotentCall, hash: string): Promise<boolean> {
  await db.delete(idempotencyKeys).where(and(
    eq(idempotencyKeys.caller, call.caller),
    eq(idempotencyKeys.key, call.key),
    sql`(${idempotencyKeys.createdAt} < ${new Date(call.now.getTime() - RETENTION_MS)}
      or (${idempotencyKeys.state} = 'running' and ${LEASE_END} < ${call.now}))`,
  ));
  const inserted = await db.insert(idempotencyKeys)
    .values({
      caller: call.caller, key: call.key, tool: call.tool, requestHash: hash, state: 'running',
      createdAt: call.now, leaseUntil: new Date(call.now.getTime() + LEASE_MS),
    })
    .onConflictDoNothing().returning({ key: idempotencyKeys.key });
  return inserted.length > 0;
}

/** Claims written before leases existed carry none: they count as leased for LEASE_MS from creation. */
const LEASE_END = sql`coalesce(${idempotencyKeys.leaseUntil}, ${idempotencyKeys.createdAt} + ${`${LEASE_MS} milliseconds`}::interval)`;

function leaseEnd(entry: { leaseUntil: Date | null; createdAt: Date }): Date {
  return entry.leaseUntil ?? new Date(entry.createdAt.getTime() + LEASE_MS);
}

function secondsUntil(end: Date, now: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
}

/**
 * The embedded database belongs to one process at a time (the data directory is locked), so at start-up
 * every running claim is a leftover of a process that stopped mid-call: its transaction never committed,
 * and a retry may run at once.
 */
export async function releaseOrphanedClaims(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.state, 'running'));
}

/** Drops entries past the 24 h retention; called periodically by the server. */
export async function purgeIdempotencyKeys(db: Db, now: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - RETENTION_MS)));
}
