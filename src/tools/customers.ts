import { asc, desc, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { REVENUE_STATUSES } from '../domain/revenue.ts';
import { customerAddresses, customers, orderItems, orders } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { Email, Id, NonNegativeInt, Oere, PositiveInt, Timestamp, toIso, money } from '../schema/common.ts';
import { OrderStatus } from '../schema/order.ts';
import type { ToolContext } from '../context.ts';
import { defineTool, readOnly } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import { containsPattern } from './text-match.ts';
import { isRevenueOrder, netOrderDkk } from '../shop/order-revenue.ts';

const RECENT_ORDERS = 10;
const asNumber = (value: unknown): number => Number(value);

/** A customer is every order placed with one e-mail address, compared case-insensitively. */
const customerEmail = sql<string>`lower(${orders.email})`;

const CustomerFields = {
  email: z.string().meta({ description: 'The e-mail address, lower-cased; identifies the customer.' }),
  name: z.string().meta({ description: 'shippingName of the customer\'s latest order.' }),
  orderCount: PositiveInt.meta({ description: 'Orders placed with this e-mail, in any status.' }),
  totalSpentDkk: money(Oere, `the sum of totalDkk, less refunds, of the orders that count as revenue (status ${REVENUE_STATUSES.join(', ')}).`),
  firstOrderAt: Timestamp,
  lastOrderAt: Timestamp,
};
const Customer = z.strictObject(CustomerFields);

/** Who saved an address, from its `owner` (db/schema.ts customerAddresses): it decides to whom checkout offers it. */
const SAVED_BY = ['shop', 'agent_key', 'buyer_account', 'platform'] as const;

function savedBy(owner: string | null): typeof SAVED_BY[number] {
  if (owner === null) return 'shop';
  if (owner.startsWith('key:')) return 'agent_key';
  if (owner.startsWith('buyer:')) return 'buyer_account';
  return 'platform';
}

const SavedAddress = z.strictObject({
  streetAddress: z.string(),
  city: z.string(),
  region: z.string().nullable(),
  postalCode: z.string(),
  countryCode: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
  savedBy: z.enum(SAVED_BY).meta({
    description: 'shop: the merchant\'s own record (imported); agent_key, buyer_account, platform: saved when an order placed '
      + 'through that agent\'s API key, that linked buyer account or that UCP platform shipped there, and offered only to it.',
  }),
});

const customerColumns = {
  email: customerEmail,
  name: sql<string>`(array_agg(${orders.shippingName} order by ${orders.createdAt} desc, ${orders.id} desc))[1]`,
  orderCount: sql<number>`count(*)`.mapWith(asNumber),
  totalSpentDkk: sql<number>`coalesce(sum(${netOrderDkk}) filter (where ${isRevenueOrder}), 0)`
    .mapWith(asNumber),
  firstOrderAt: sql<Date>`min(${orders.createdAt})`.mapWith(orders.createdAt),
  lastOrderAt: sql<Date>`max(${orders.createdAt})`.mapWith(orders.createdAt),
};

function selectCustomers(db: ToolContext['db'], where: SQL | undefined, having: SQL | undefined) {
  return db.select(customerColumns).from(orders).where(where).groupBy(customerEmail).having(having)
    .orderBy(desc(sql`max(${orders.createdAt})`), customerEmail);
}

type CustomerRow = Awaited<ReturnType<typeof selectCustomers>>[number];

function toCustomer(row: CustomerRow): z.input<typeof Customer> {
  return { ...row, firstOrderAt: toIso(row.firstOrderAt), lastOrderAt: toIso(row.lastOrderAt) };
}

export const listCustomers = defineTool({
  name: 'customers.list',
  description: 'List customers, derived from orders: every e-mail address (case-insensitive) that has ordered, with the '
    + 'latest shipping name, order count, amount spent in øre and first/last order time, most recent buyer first. '
    + 'q finds a customer by part of the e-mail or of any shipping name used. Page with limit and offset.',
  scope: 'customer:read',
  annotations: readOnly('List customers'),
  input: z.strictObject({
    q: z.string().trim().min(1).max(200).optional().meta({
      description: 'Case-insensitive part of the e-mail address or of a shipping name.',
      examples: ['jensen', '@firma.dk'],
    }),
    limit: z.int().min(1).max(100).default(20).meta({ description: 'Page size, 1..100.' }),
    offset: z.int().min(0).max(10_000).default(0).meta({ description: 'Customers to skip, 0..10000.' }),
  }).meta({ examples: [{ q: 'karen', limit: 20 }] }),
  output: z.array(Customer),
  async handler({ q, limit, offset }, { db }) {
    const pattern = q !== undefined ? containsPattern(q) : undefined;
    const having = pattern !== undefined
      ? sql`(${customerEmail} ilike ${pattern} or bool_or(${orders.shippingName} ilike ${pattern}))`
      : undefined;
    const rows = await selectCustomers(db, undefined, having).limit(limit).offset(offset);
    return rows.map(toCustomer);
  },
});

export const getCustomer = defineTool({
  name: 'customers.get',
  description: 'Get one customer by e-mail address (case-insensitive): the figures of customers.list plus the '
    + `${RECENT_ORDERS} most recent orders (id, status, totalDkk in øre, itemCount, createdAt); orders.get shows one in `
    + 'full, and the customer\'s saved addresses (savedAddresses, oldest first, with who saved each). An e-mail with no orders '
    + 'is 404 not_found.',
  scope: 'customer:read',
  annotations: readOnly('Get customer'),
  input: z.strictObject({ email: Email.meta({ description: 'The customer\'s e-mail address.', examples: ['jens@example.dk'] }) })
    .meta({ examples: [{ email: 'karen@example.dk' }] }),
  output: z.strictObject({
    ...CustomerFields,
    recentOrders: z.array(z.strictObject({
      id: Id,
      status: OrderStatus,
      totalDkk: Oere,
      itemCount: NonNegativeInt.meta({ description: 'Sum of the item quantities.' }),
      createdAt: Timestamp,
    })).max(RECENT_ORDERS).meta({ description: `Up to ${RECENT_ORDERS} orders, newest first.` }),
    savedAddresses: z.array(SavedAddress).meta({ description: 'Addresses kept for this e-mail\'s known buyer record; empty when there is none.' }),
  }),
  async handler({ email }, { db }) {
    const byEmail = eq(customerEmail, email.toLowerCase());
    const [customer] = await selectCustomers(db, byEmail, undefined);
    if (!customer) throw new ToolError('not_found', `No orders were placed with the e-mail "${email}".`);
    const recent = await db.select({
      id: orders.id,
      status: orders.status,
      totalDkk: orders.totalDkk,
      itemCount: sql<number>`coalesce(sum(${orderItems.quantity}), 0)`.mapWith(asNumber),
      createdAt: orders.createdAt,
    }).from(orders).leftJoin(orderItems, eq(orderItems.orderId, orders.id)).where(byEmail).groupBy(orders.id)
      .orderBy(desc(orders.createdAt), desc(orders.id)).limit(RECENT_ORDERS);
    const addresses = await db.select({
      streetAddress: customerAddresses.streetAddress, city: customerAddresses.city, region: customerAddresses.region,
      postalCode: customerAddresses.postalCode, countryCode: customerAddresses.countryCode, owner: customerAddresses.owner,
    }).from(customerAddresses).innerJoin(customers, eq(customers.id, customerAddresses.customerId))
      .where(sql`lower(${customers.email}) = ${email.toLowerCase()}`)
      .orderBy(asc(customerAddresses.createdAt), asc(customerAddresses.id));
    return {
      ...toCustomer(customer),
      recentOrders: recent.map((order) => ({ ...order, status: OrderStatus.parse(order.status), createdAt: toIso(order.createdAt) })),
      savedAddresses: addresses.map(({ owner, ...address }) => ({ ...address, savedBy: savedBy(owner) })),
    };
  },
});

export const customerTools: AnyTool[] = [listCustomers, getCustomer];
