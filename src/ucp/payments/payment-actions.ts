import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ucpOrders, ucpPaymentActions } from '../../db/schema.ts';
import type { Log } from '../../log.ts';
import { isProcessorName, processorNamed } from './processors.ts';
import { retryQueue } from '../core/queue-worker.ts';
import type { QueueWorker } from '../core/queue-worker.ts';

/**
 * Carries out the payment actions UCP orders' status changes queued (a refund through the processor that took
 * the payment), after the change committed; retried with backoff, claimed with SKIP LOCKED across instances.
 */
export function paymentActions(options: { db: Db; log: Log; clock: () => Date; pollMs?: number; firstRetryMs?: number }): QueueWorker {
  const { db, log } = options;
  return retryQueue({
    ...options,
    name: 'payment actions',
    table: ucpPaymentActions,
    async attempt(action) {
      const [order] = await db.select({ processor: ucpOrders.processor, reference: ucpOrders.paymentReference })
        .from(ucpOrders).where(eq(ucpOrders.orderId, action.orderId));
      if (!order?.reference || !isProcessorName(order.processor)) {
        throw new Error(`order ${action.orderId} names no processor this server has (${order?.processor ?? 'none'})`);
      }
      await processorNamed(order.processor).refund(order.reference, action.amount);
      await db.update(ucpPaymentActions).set({ status: 'done', doneAt: options.clock(), lastError: null }).where(eq(ucpPaymentActions.id, action.id));
    },
    reportFailure(action, reason, givenUp) {
      log.error({ actionId: action.id, orderId: action.orderId, attempts: action.attempts, reason },
        givenUp ? 'ucp: payment action failed for good; settle it with the processor' : 'ucp: payment action failed; retrying');
    },
  });
}
