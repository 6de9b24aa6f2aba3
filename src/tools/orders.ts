import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { orders } from '../db/schema.ts';
import { describeTransitions } from '../domain/order-status.ts';
import { Email, Id, Oere, Timestamp, money } from '../schema/common.ts';
import { OrderStatus, OrderSummary, OrderWithRefunds, RestockedLines, SHIPMENT_FIELDS, Shipment } from '../schema/order.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import { currentVersion } from '../shop/record-version.ts';
import { requireVersion } from './version-check.ts';
import { changeOrderStatus, findOrder, itemsByOrder, toOrderRecord, toOrderSummary } from '../commerce/orders.ts';
import { refundOrder, refundsOf, toRefundRecord } from '../commerce/order-refunds.ts';

const AMOUNTS = 'All amounts are øre (1/100 DKK) incl. 25 % VAT.';

export const listOrders = defineTool({
  name: 'orders.list',
  description: `List orders, newest first, as summaries with their items. Filters combine with AND: status; email `
    + `(case-insensitive); fromDate/toDate, an inclusive range on createdAt. itemCount is the sum of quantities. ${AMOUNTS}`,
  scope: 'orders:read',
  annotations: readOnly('List orders'),
  input: z.strictObject({
    status: OrderStatus.optional(),
    email: Email.optional().meta({ description: 'Customer e-mail, matched case-insensitively.' }),
    fromDate: Timestamp.optional().meta({ description: 'Orders created at or after this instant.' }),
    toDate: Timestamp.optional().meta({ description: 'Orders created at or before this instant.' }),
    limit: z.int().min(1).max(100).default(20).meta({ description: 'Page size, 1..100.' }),
  }).refine((input) => !input.fromDate || !input.toDate || Date.parse(input.fromDate) <= Date.parse(input.toDate), {
    message: 'fromDate must not be after toDate',
    path: ['fromDate'],
  }).meta({ examples: [{ status: 'paid', fromDate: '2026-11-01T00:00:00Z', limit: 20 }] }),
  output: z.array(OrderSummary),
  async handler({ status, email, fromDate, toDate, limit }, { db }) {
    const conditions: SQL[] = [];
    if (status) conditions.push(eq(orders.status, status));
    if (email) conditions.push(sql`lower(${orders.email}) = ${email.toLowerCase()}`);
    if (fromDate) conditions.push(gte(orders.createdAt, new Date(fromDate)));
    // Results show createdAt to the millisecond while the database keeps microseconds: an order shown
    // at exactly toDate must be inside the inclusive range, so the bound is the end of that millisecond.
    if (toDate) conditions.push(lt(orders.createdAt, new Date(Date.parse(toDate) + 1)));
    const rows = await db.select().from(orders).where(and(...conditions))
      .orderBy(desc(orders.createdAt), desc(orders.id)).limit(limit);
    const items = await itemsByOrder(db, rows.map((row) => row.id));
    return rows.map((row) => toOrderSummary(row, items.get(row.id) ?? []));
  },
});

export const getOrder = defineTool({
  name: 'orders.get',
  description: 'Get the full record of one order with its items and its refunds (amount, at, by, reason, restocked lines), '
    + `oldest first; every field is present, null where unknown. ${AMOUNTS}`,
  scope: 'orders:read',
  annotations: readOnly('Get order'),
  input: z.strictObject({ orderId: Id }).meta({ examples: [{ orderId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81' }] }),
  output: OrderWithRefunds,
  async handler({ orderId }, { db }) {
    const order = await findOrder(db, orderId);
    const items = await itemsByOrder(db, [order.id]);
    const refunds = await refundsOf(db, order.id);
    return { ...toOrderRecord(order, items.get(order.id) ?? []), refunds: refunds.map(toRefundRecord) };
  },
  version: (order, { db }) => currentVersion(db, orders, order.id),
});

export const updateOrderStatus = defineTool({
  name: 'orders.update_status',
  description: 'Move an order to a legal next status; anything else → 422 illegal_transition naming the legal next '
    + `statuses. Setting the current status again changes nothing. Legal moves: ${describeTransitions()} `
    + 'Effects: → paid sets paidAt, → refunded sets refundedAt, → disputed sets disputedAt, → cancelled puts the items '
    + 'back in stock and gives back the discount use. With status shipped, carrier, trackingNumber, trackingUrl and '
    + 'estDeliveryFrom/To may be given (all optional); sending them again to a shipped order updates them. '
    + 'Each change is audited with the previous values.',
  scope: 'orders:write',
  annotations: write('Update order status', { idempotent: true, destructive: true }),
  input: z.strictObject({ orderId: Id, status: OrderStatus, ...Shipment.shape })
    .refine((input) => input.status === 'shipped' || SHIPMENT_FIELDS.every((field) => input[field] === undefined), {
      message: 'carrier, tracking and delivery estimates can only be given with status shipped',
      path: ['status'],
    })
    .refine((input) => !input.estDeliveryFrom || !input.estDeliveryTo || Date.parse(input.estDeliveryFrom) <= Date.parse(input.estDeliveryTo), {
      message: 'estDeliveryFrom must not be after estDeliveryTo',
      path: ['estDeliveryFrom'],
    })
    .meta({ examples: [{ orderId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81', status: 'shipped', carrier: 'PostNord', trackingNumber: '00370712345678901234' }] }),
  output: z.strictObject({ id: Id, status: OrderStatus }),
  async handler(input, ctx) {
    await requireVersion(ctx, {
      table: orders, id: input.orderId, readTool: 'orders.get', current: () => getOrder.handler({ orderId: input.orderId }, ctx),
    });
    return changeOrderStatus(ctx, input);
  },
  version: (order, { db }) => currentVersion(db, orders, order.id),
});

const RestockLine = z.strictObject({
  productId: Id.optional(),
  sku: z.string().min(1).max(200).optional().meta({ description: 'Or the product\'s or variant\'s SKU.' }),
  quantity: z.int().min(1).max(1_000_000).meta({ description: 'How many to put back.' }),
}).refine((line) => (line.productId === undefined) !== (line.sku === undefined), { message: 'give productId or sku, not both', path: ['productId'] });

export const refundOrderTool = defineTool({
  name: 'orders.refund',
  description: 'Refund an order, whole or in part: amount defaults to all that is left (total minus earlier refunds); '
    + 'more → 422 refund_exceeds_remaining. The order becomes refunded when nothing is left, else partial_refund '
    + '(a status that cannot move there → 422 illegal_transition); refundedAt is set. restock puts the lines (or only '
    + '`lines`) back in stock. An order paid through a payment processor is paid back through it first; if that fails → '
    + `502 payment_refund_failed, nothing recorded. orders.get lists refunds. ${AMOUNTS}`,
  scope: 'orders:write',
  annotations: write('Refund order', { idempotent: false, destructive: true }),
  input: z.strictObject({
    orderId: Id,
    amount: money(z.int().min(1), 'the amount to refund, at least 1; left out: everything left to refund.', 124900).optional(),
    restock: z.boolean().default(false).meta({ description: 'Put the refunded lines back in stock.' }),
    lines: z.array(RestockLine).min(1).max(500).optional().meta({ description: 'With restock: only these lines; left out: every line.' }),
    reason: z.string().trim().min(1).max(500).optional().meta({ description: 'Why, shown in the order history.' }),
  }).refine((input) => input.lines === undefined || input.restock, { message: 'lines can only be given with restock: true', path: ['lines'] })
    .meta({ examples: [{ orderId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81', amount: 24900, restock: true, reason: 'Skår i koppen' }] }),
  output: z.strictObject({
    orderId: Id,
    status: OrderStatus,
    amount: Oere,
    refundedDkk: money(z.int(), 'refunded in all, this refund included.', 24900),
    remainingDkk: money(z.int(), 'still refundable.', 20000),
    restocked: RestockedLines,
  }),
  async handler(input, ctx) {
    await requireVersion(ctx, {
      table: orders, id: input.orderId, readTool: 'orders.get', current: () => getOrder.handler({ orderId: input.orderId }, ctx),
    });
    return refundOrder(ctx, input);
  },
  version: (refund, { db }) => currentVersion(db, orders, refund.orderId),
});

export const orderTools: AnyTool[] = [listOrders, getOrder, updateOrderStatus, refundOrderTool];
