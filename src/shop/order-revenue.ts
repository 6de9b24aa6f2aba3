import { inArray, sql } from 'drizzle-orm';
import { orderRefunds, orders } from '../db/schema.ts';
import { REVENUE_STATUSES } from '../domain/revenue.ts';

/** An order that counts as a sale (domain/revenue.ts), as a condition on `orders`. */
export const isRevenueOrder = inArray(orders.status, [...REVENUE_STATUSES]);

/**
 * What an order brings in: its total less what its refunds gave back (docs/behaviour.md#refunds). Analytics and
 * customers both sum this, so a shop's revenue and what its customers spent agree.
 */
export const netOrderDkk = sql`(${orders.totalDkk} - coalesce((select sum(${orderRefunds.amount}) from ${orderRefunds} where ${orderRefunds.orderId} = ${orders.id}), 0))`;
