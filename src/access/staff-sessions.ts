import { createHash } from 'node:crypto';
import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { staffSessions } from '../db/schema.ts';

type Callback = (error?: unknown) => void;
/** What @fastify/session hands a store: JSON-able, with the signed-in person's id once there is one. */
type SessionData = { staffId?: string };

/** The store interface of @fastify/session (callbacks), over the staff_sessions table. */
export type StaffSessionStore<S extends SessionData> = {
  set(sessionId: string, session: S, callback: Callback): void;
  get(sessionId: string, callback: (error: unknown, session?: S | null) => void): void;
  destroy(sessionId: string, callback: Callback): void;
};

function rowId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

/**
 * Sessions in the database, so every instance sees every sign-in and sign-out. Each save moves the idle
 * deadline forward by `idleMs`; a session read after its deadline (by `clock`, which tests move) is gone.
 */
export function staffSessionStore<S extends SessionData>(options: { db: Db; clock: () => Date; idleMs: number }): StaffSessionStore<S> {
  const { db, clock, idleMs } = options;
  const settle = <T>(work: Promise<T>, done: (error: unknown, value?: T) => void) => {
    work.then((value) => done(null, value), (error: unknown) => done(error));
  };
  return {
    set(sessionId, session, callback) {
      const data: SessionData = JSON.parse(JSON.stringify(session));
      const values = { data, staffId: typeof data.staffId === 'string' ? data.staffId : null, expiresAt: new Date(clock().getTime() + idleMs) };
      settle(db.insert(staffSessions).values({ idHash: rowId(sessionId), ...values })
        .onConflictDoUpdate({ target: staffSessions.idHash, set: values }), (error) => callback(error ?? undefined));
    },
    get(sessionId, callback) {
      settle(db.select({ data: staffSessions.data }).from(staffSessions)
        .where(and(eq(staffSessions.idHash, rowId(sessionId)), gt(staffSessions.expiresAt, clock()))), (error, rows) => {
        const data = rows?.[0]?.data;
        // The row holds what set() was given for this id, so it reads back as that type.
        callback(error ?? null, typeof data === 'object' && data !== null ? data as S : null);
      });
    },
    destroy(sessionId, callback) {
      settle(db.delete(staffSessions).where(eq(staffSessions.idHash, rowId(sessionId))), (error) => callback(error ?? undefined));
    },
  };
}

/** Ends every session of one person: "sign out everywhere", a password reset. */
export async function endStaffSessions(db: Db, staffId: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.staffId, staffId));
}

/** Drops sessions whose idle deadline has passed; they are refused anyway, this only keeps the table small. */
export async function purgeStaffSessions(db: Db, now: Date): Promise<void> {
  await db.delete(staffSessions).where(lte(staffSessions.expiresAt, now));
}
