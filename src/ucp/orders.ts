import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { ucpOrders } from '../db/schema.ts';
import { notFound } from './errors.ts';

/** GET /orders/{id}: the UCP order document. The id is the capability (open checkout mode). */
export async function readOrder(db: Queryable, id: string): Promise<Record<string, unknown>> {
  const [row] = await db.select({ document: ucpOrders.document }).from(ucpOrders).where(eq(ucpOrders.orderId, id));
  if (!row) throw notFound('Order');
  return row.document;
}
