import { and, asc, desc, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ORDER_STATUSES } from '../domain/order-status.ts';
import { REVENUE_STATUSES, usesDiscount } from '../domain/revenue.ts';
import { orderItems, orders, products } from '../db/schema.ts';
import { isRevenueOrder, netOrderDkk } from '../shop/order-revenue.ts';
import { Id, NonNegativeInt, Oere, Timestamp, toIso, money } from '../schema/common.ts';
import { OrderStatus } from '../schema/order.ts';
import type { ToolContext } from '../context.ts';
import { defineTool, readOnly } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';

const TOP_PRODUCTS = 10;
const DISCOUNT_CODES = 50;
const DISCOUNT_USE_STATUSES = ORDER_STATUSES.filter(usesDiscount);

const SummaryInput = z.strictObject({
  fromDate: Timestamp.optional().meta({ description: 'Only orders created at or after this time (inclusive).' }),
  toDate: Timestamp.optional().meta({ description: 'Only orders created at or before this time (inclusive).' }),
  status: OrderStatus.optional().meta({ description: 'Only orders in this status; every figure then covers just them.' }),
}).refine((input) => !input.fromDate || !input.toDate || Date.parse(input.fromDate) <= Date.parse(input.toDate), {
  message: 'fromDate must not be after toDate',
  path: ['fromDate'],
}).meta({ examples: [{}, { fromDate: '2026-01-01T00:00:00Z', toDate: '2026-01-31T23:59:59.999Z' }] });

const StatusFigures = z.strictObject({
  orderCount: NonNegativeInt,
  totalDkk: money(Oere, 'the sum of totalDkk of these orders.'),
});

const FiguresByStatus = z.record(OrderStatus, StatusFigures)
  .meta({ description: 'Every one of the 12 statuses, zeros included.' });

const SummaryOutput = z.strictObject({
  fromDate: Timestamp.nullable().meta({ description: 'The fromDate asked for, or null.' }),
  toDate: Timestamp.nullable().meta({ description: 'The toDate asked for, or null.' }),
  status: OrderStatus.nullable().meta({ description: 'The status filter asked for, or null.' }),
  orderCount: NonNegativeInt.meta({ description: 'All orders in the range, in any status.' }),
  revenueStatuses: z.array(OrderStatus).meta({ description: 'The statuses whose orders count as revenue.' }),
  revenueOrderCount: NonNegativeInt.meta({ description: 'Orders in the range whose status is in revenueStatuses.' }),
  revenueDkk: money(Oere, 'the sum of totalDkk (incl. shipping, after discount, incl. VAT) of those orders, less their refunds.'),
  averageOrderValueDkk: money(Oere, 'revenueDkk / revenueOrderCount rounded to whole øre; 0 without orders.'),
  byStatus: FiguresByStatus,
  topProducts: z.array(z.strictObject({
    productId: Id,
    slug: z.string(),
    name: z.string().meta({ description: 'The product name now.' }),
    unitsSold: NonNegativeInt,
    revenueDkk: money(Oere, 'the sum of unitPriceDkk × quantity of its order lines (before order discounts).'),
  })).max(TOP_PRODUCTS).meta({ description: `Up to ${TOP_PRODUCTS} products by units sold, then revenue, in revenue orders.` }),
  discountUsage: z.array(z.strictObject({
    code: z.string(),
    orderCount: NonNegativeInt,
    discountDkk: money(Oere, 'the sum of discountDkk given on those orders.'),
  })).max(DISCOUNT_CODES).meta({ description: `Up to ${DISCOUNT_CODES} codes, most used first; orders that are not cancelled.` }),
  agentOrders: z.strictObject({
    orderCount: NonNegativeInt.meta({ description: 'Orders in the range created by AI agents (isAiGenerated).' }),
    share: z.number().min(0).max(1).meta({ description: 'agentOrders.orderCount / orderCount; 0 without orders.' }),
    revenueDkk: money(Oere, 'the part of revenueDkk from agent orders.'),
  }),
});

type Summary = z.input<typeof SummaryOutput>;

const asNumber = (value: unknown): number => Number(value);

function orderFilter(input: z.output<typeof SummaryInput>): SQL[] {
  const conditions: SQL[] = [];
  if (input.fromDate !== undefined) conditions.push(gte(orders.createdAt, new Date(input.fromDate)));
  if (input.toDate !== undefined) conditions.push(lte(orders.createdAt, new Date(input.toDate)));
  if (input.status !== undefined) conditions.push(eq(orders.status, input.status));
  return conditions;
}

/**
 * The order-level figures per status and in total, from one statement (GROUP BY ROLLUP), so the totals
 * and the per-status rows describe the same snapshot. The rollup row (grouping = 1) exists even for no orders.
 */
async function orderFigures(db: ToolContext['db'], filter: SQL[]) {
  const rows = await db.select({
    isTotal: sql<number>`grouping(${orders.status})`.mapWith(asNumber),
    status: orders.status,
    orderCount: sql<number>`count(*)`.mapWith(asNumber),
    totalDkk: sql<number>`coalesce(sum(${orders.totalDkk}), 0)`.mapWith(asNumber),
    revenueOrderCount: sql<number>`count(*) filter (where ${isRevenueOrder})`.mapWith(asNumber),
    revenueDkk: sql<number>`coalesce(sum(${netOrderDkk}) filter (where ${isRevenueOrder}), 0)`.mapWith(asNumber),
    averageOrderValueDkk: sql<number>`coalesce(round(avg(${netOrderDkk}) filter (where ${isRevenueOrder})), 0)`.mapWith(asNumber),
    agentOrderCount: sql<number>`count(*) filter (where ${orders.isAiGenerated})`.mapWith(asNumber),
    agentShare: sql<number>`coalesce(count(*) filter (where ${orders.isAiGenerated})::float8 / nullif(count(*), 0), 0)`
      .mapWith(asNumber),
    agentRevenueDkk: sql<number>`coalesce(sum(${netOrderDkk}) filter (where ${orders.isAiGenerated} and ${isRevenueOrder}), 0)`
      .mapWith(asNumber),
  }).from(orders).where(and(...filter)).groupBy(sql`rollup(${orders.status})`);

  const total = rows.find((row) => row.isTotal === 1);
  if (!total) throw new Error('rollup returned no total row');
  const found = new Map(rows.filter((row) => row.isTotal === 0).map((row) => [row.status, row]));
  // Parsed rather than cast: the schema proves every status is present.
  const byStatus = FiguresByStatus.parse(Object.fromEntries(ORDER_STATUSES.map((status) => {
    const row = found.get(status);
    return [status, { orderCount: row?.orderCount ?? 0, totalDkk: row?.totalDkk ?? 0 }];
  })));
  return { total, byStatus };
}

async function topProducts(db: ToolContext['db'], filter: SQL[]): Promise<Summary['topProducts']> {
  const unitsSold = sql<number>`sum(${orderItems.quantity})`.mapWith(asNumber);
  const revenueDkk = sql<number>`sum(${orderItems.unitPriceDkk} * ${orderItems.quantity})`.mapWith(asNumber);
  return db.select({ productId: products.id, slug: products.slug, name: products.name, unitsSold, revenueDkk })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(and(...filter, isRevenueOrder))
    .groupBy(products.id)
    .orderBy(desc(unitsSold), desc(revenueDkk), asc(products.slug))
    .limit(TOP_PRODUCTS);
}

async function discountUsage(db: ToolContext['db'], filter: SQL[]): Promise<Summary['discountUsage']> {
  const orderCount = sql<number>`count(*)`.mapWith(asNumber);
  const rows = await db.select({
    code: orders.discountCode,
    orderCount,
    discountDkk: sql<number>`coalesce(sum(${orders.discountDkk}), 0)`.mapWith(asNumber),
  }).from(orders)
    .where(and(...filter, isNotNull(orders.discountCode), inArray(orders.status, DISCOUNT_USE_STATUSES)))
    .groupBy(orders.discountCode)
    .orderBy(desc(orderCount), asc(orders.discountCode))
    .limit(DISCOUNT_CODES);
  return rows.flatMap((row) => (row.code === null ? [] : [{ ...row, code: row.code }]));
}

export const analyticsSummary = defineTool({
  name: 'analytics.summary',
  description: 'Sales figures for a period: order count, revenue, average order value, orders and totals per status, '
    + 'top products, discount-code usage and the share of orders placed by AI agents. All amounts are integer øre incl. VAT. '
    + 'fromDate and toDate (optional, inclusive) filter on the order creation time; status narrows every figure to one '
    + `status. Revenue counts the orders whose status is one of ${REVENUE_STATUSES.join(', ')} (sold: paid or invoiced, `
    + 'not called off); pending_payment (card not paid yet), flagged_review, cancelled and refunded orders do not count, '
    + 'and revenue is net of refunds: an order counts with its total less what orders.refund gave back (a partial_refund order with '
    + 'its total minus the refunded amounts). Top products come from revenue orders; discount usage '
    + 'counts every order except cancelled ones (cancelling gives the use back). A period without orders gives zeros.',
  scope: 'analytics:read',
  annotations: readOnly('Sales summary'),
  input: SummaryInput,
  output: SummaryOutput,
  async handler(input, { db }) {
    const filter = orderFilter(input);
    const { total, byStatus } = await orderFigures(db, filter);
    return {
      fromDate: input.fromDate !== undefined ? toIso(new Date(input.fromDate)) : null,
      toDate: input.toDate !== undefined ? toIso(new Date(input.toDate)) : null,
      status: input.status ?? null,
      orderCount: total.orderCount,
      revenueStatuses: [...REVENUE_STATUSES],
      revenueOrderCount: total.revenueOrderCount,
      revenueDkk: total.revenueDkk,
      averageOrderValueDkk: total.averageOrderValueDkk,
      byStatus,
      topProducts: await topProducts(db, filter),
      discountUsage: await discountUsage(db, filter),
      agentOrders: { orderCount: total.agentOrderCount, share: total.agentShare, revenueDkk: total.agentRevenueDkk },
    };
  },
});

export const analyticsTools: AnyTool[] = [analyticsSummary];
