import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { orders } from '../db/schema.ts';
import { describeTransitions } from '../domain/order-status.ts';
import { Email, Id, Timestamp } from '../schema/common.ts';
import { OrderRecord, OrderStatus, OrderSummary, SHIPMENT_FIELDS, Shipment } from '../schema/order.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import { currentVersion } from '../shop/record-version.ts';
import { requireVersion } from './version-check.ts';
import { changeOrderStatus, findOrder, itemsByOrder, toOrderRecord, toOrderSummary } from '../commerce/orders.ts';

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
  description: `Get the full record of one order with its items; every field is present, null where unknown. ${AMOUNTS}`,
  scope: 'orders:read',
  annotations: readOnly('Get order'),
  input: z.strictObject({ orderId: Id }).meta({ examples: [{ orderId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81' }] }),
  output: OrderRecord,
  async handler({ orderId }, { db }) {
    const order = await findOrder(db, orderId);
    const items = await itemsByOrder(db, [order.id]);
    return toOrderRecord(order, items.get(order.id) ?? []);
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

export const orderTools: AnyTool[] = [listOrders, getOrder, updateOrderStatus];
