import { orderItems, orders } from '../../src/db/schema.ts';
import type { TestApp } from './app.ts';

type OrderRow = typeof orders.$inferInsert;
export type InsertedItem = { productId: string; productName?: string; unitPriceDkk: number; quantity: number };

/**
 * An order written straight into the tables, for the read tools that aggregate orders (analytics, customers),
 * without going through cart.checkout. Amounts default to the items' sum with free shipping.
 */
export async function insertOrder(
  t: TestApp,
  fields: Partial<OrderRow> & { status: string; createdAt: Date; items?: InsertedItem[] },
): Promise<string> {
  const { items = [], ...order } = fields;
  const subtotal = items.reduce((sum, item) => sum + item.unitPriceDkk * item.quantity, 0);
  const [row] = await t.database.db.insert(orders).values({
    email: 'kunde@example.dk',
    shippingName: 'Kunde Kundesen',
    shippingAddress: 'Nørregade 1',
    shippingZip: '1165',
    shippingCity: 'København K',
    subtotalDkk: subtotal,
    shippingDkk: 0,
    discountDkk: 0,
    totalDkk: subtotal,
    channel: 'api',
    ...order,
  }).returning({ id: orders.id });
  if (!row) throw new Error('order insert returned no row');
  if (items.length > 0) {
    await t.database.db.insert(orderItems).values(items.map((item) => ({
      orderId: row.id,
      productId: item.productId,
      productName: item.productName ?? 'Produkt',
      unitPriceDkk: item.unitPriceDkk,
      quantity: item.quantity,
    })));
  }
  return row.id;
}
