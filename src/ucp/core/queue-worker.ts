import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { ucpPaymentActions, ucpWebhookOutbox } from '../../db/schema.ts';
import type { Log } from '../../log.ts';

/** The tables a retry queue works through; they share the columns of `retryColumns` in src/db/schema.ts. */
export type RetryTable = typeof ucpWebhookOutbox | typeof ucpPaymentActions;

export type RetryQueueOptions<T extends RetryTable> = {
  name: string;
  db: Db;
  log: Log;
  clock: () => Date;
  table: T;
  /** How often due items are looked for, besides the kick after each commit. */
  pollMs?: number;
  firstRetryMs?: number;
  /** One claimed item's work, its success recorded; throws with the reason when the attempt failed. */
  attempt(item: T['$inferSelect']): Promise<void>;
  /** Logs a failed attempt; `givenUp` when the item is now `failed` for good. */
  reportFailure(item: T['$inferSelect'], reason: string, givenUp: boolean): void;
};

/** A claimed item is invisible to other instances this long, longer than one attempt may take. */
const CLAIM_MS = 30_000;
const BATCH = 10;

/** Retries back off from `firstRetryMs`, doubling up to an hour. */
function backoffMs(attempts: number, firstRetryMs: number): number {
  return Math.min(60 * 60 * 1000, firstRetryMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Works through a table's due items after the transactions that wrote them commit: every instance runs one and
 * SKIP LOCKED hands each due item to one of them. A failed attempt is retried with backoff from `firstRetryMs` up
 * to an hour, until the item's giveUpAt; then it is `failed`. Polls every `pollMs` and runs at once when kicked;
 * one pass at a time, a kick during a pass asks for another right after it.
 */
export function retryQueue<T extends RetryTable>(options: RetryQueueOptions<T>) {
  const { db, log } = options;
  const table: RetryTable = options.table;
  const firstRetryMs = options.firstRetryMs ?? 5_000;

  async function claim(): Promise<Array<T['$inferSelect']>> {
    const now = options.clock();
    const due = db.select({ id: table.id }).from(table)
      .where(and(eq(table.status, 'pending'), lte(table.nextAttemptAt, now)))
      .orderBy(asc(table.nextAttemptAt)).limit(BATCH)
      .for('update', { skipLocked: true });
    const claimed = await db.update(table)
      .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_MS), attempts: sql`${table.attempts} + 1` })
      .where(inArray(table.id, due))
      .returning();
    // Rows of options.table, which the union the queries are typed with cannot say.
    return claimed as Array<T['$inferSelect']>;
  }

  async function work(item: T['$inferSelect']): Promise<void> {
    let failure: string;
    try {
      await options.attempt(item);
      return;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const now = options.clock();
    const givenUp = now.getTime() >= item.giveUpAt.getTime();
    options.reportFailure(item, failure, givenUp);
    await db.update(table).set({
      lastError: failure.slice(0, 500),
      ...(givenUp ? { status: 'failed' as const } : { nextAttemptAt: new Date(now.getTime() + backoffMs(item.attempts, firstRetryMs)) }),
    }).where(eq(table.id, item.id));
  }

  async function pass(): Promise<boolean> {
    const claimed = await claim();
    await Promise.all(claimed.map(work));
    return claimed.length === BATCH;
  }

  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  async function drain(): Promise<void> {
    do {
      again = false;
      if (await pass()) again = true;
    } while (again && !closed);
  }

  function kick(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain().catch((error: unknown) => {
      log.error({ err: error }, `ucp: ${options.name} pass failed`);
    }).finally(() => { running = undefined; });
    return running;
  }

  const timer = setInterval(() => void kick(), options.pollMs ?? 1_000);
  timer.unref();
  return {
    kick,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
export type QueueWorker = ReturnType<typeof retryQueue>;
