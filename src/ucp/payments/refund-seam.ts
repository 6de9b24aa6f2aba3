import { eq } from 'drizzle-orm';
import type { PaymentRefundHub } from '../../context.ts';
import { ucpOrders } from '../../db/schema.ts';
import { isProcessorName, processorNamed } from './processors.ts';

/**
 * Registers UCP's processors with commerce's refunds (composition does this only while UCP is on): a UCP order's
 * refund goes back through the processor that authorized its payment, with the refund's amount, before the refund is
 * recorded. Orders UCP did not take the payment of are not its own.
 */
export function refundThroughProcessors(refunds: PaymentRefundHub): void {
  refunds.register(async (db, order, amount) => {
    if (order.channel !== 'ucp') return false;
    const [row] = await db.select({ processor: ucpOrders.processor, reference: ucpOrders.paymentReference })
      .from(ucpOrders).where(eq(ucpOrders.orderId, order.orderId));
    if (!row?.reference || !isProcessorName(row.processor)) return false;
    await processorNamed(row.processor).refund(row.reference, amount);
    return true;
  });
}
