import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ucpOrders, ucpPaymentActions } from '../db/schema.ts';
import type { Log } from '../log.ts';
import { PROCESSOR_NAMES, processorNamed } from './processors.ts';
import type { ProcessorName } from './processors.ts';
import { BATCH, backoffMs, CLAIM_MS, queueWorker } from './queue-worker.ts';
import type { QueueWorker } from './queue-worker.ts';

function isProcessorName(name: string | null): name is ProcessorName {
  return (PROCESSOR_NAMES as readonly (string | null)[]).includes(name);
}

/**
 * Carries out the payment actions UCP orders' status changes queued (a refund through the processor that took
 * the payment), after the change committed; retried with backoff, claimed with SKIP LOCKED across instances.
 */
export function paymentActions(options: { db: Db; log: Log; clock: () => Date; pollMs?: number; firstRetryMs?: number }): QueueWorker {
  const { db, log } = options;
  const firstRetryMs = options.firstRetryMs ?? 5_000;

  async function claim() {
    const now = options.clock();
    const due = db.select({ id: ucpPaymentActions.id }).from(ucpPaymentActions)
      .where(and(eq(ucpPaymentActions.status, 'pending'), lte(ucpPaymentActions.nextAttemptAt, now)))
      .orderBy(asc(ucpPaymentActions.nextAttemptAt)).limit(BATCH)
      .for('update', { skipLocked: true });
    return db.update(ucpPaymentActions)
      .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_MS), attempts: sql`${ucpPaymentActions.attempts} + 1` })
      .where(inArray(ucpPaymentActions.id, due))
      .returning();
  }

  async function perform(action: Awaited<ReturnType<typeof claim>>[number]): Promise<void> {
    let failure: string;
    try {
      const [order] = await db.select({ processor: ucpOrders.processor, reference: ucpOrders.paymentReference })
        .from(ucpOrders).where(eq(ucpOrders.orderId, action.orderId));
      if (!order?.reference || !isProcessorName(order.processor)) {
        throw new Error(`order ${action.orderId} names no processor this server has (${order?.processor ?? 'none'})`);
      }
      await processorNamed(order.processor).refund(order.reference, action.amount);
      await db.update(ucpPaymentActions).set({ status: 'done', doneAt: options.clock(), lastError: null }).where(eq(ucpPaymentActions.id, action.id));
      return;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const now = options.clock();
    const expired = now.getTime() >= action.giveUpAt.getTime();
    log.error({ actionId: action.id, orderId: action.orderId, attempts: action.attempts, reason: failure },
      expired ? 'ucp: payment action failed for good; settle it with the processor' : 'ucp: payment action failed; retrying');
    await db.update(ucpPaymentActions).set({
      lastError: failure.slice(0, 500),
      ...(expired ? { status: 'failed' as const } : { nextAttemptAt: new Date(now.getTime() + backoffMs(action.attempts, firstRetryMs)) }),
    }).where(eq(ucpPaymentActions.id, action.id));
  }

  return queueWorker({
    name: 'payment actions',
    log,
    pollMs: options.pollMs ?? 1_000,
    async pass() {
      const claimed = await claim();
      await Promise.all(claimed.map(perform));
      return claimed.length === BATCH;
    },
  });
}
