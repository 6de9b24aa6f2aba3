import pg from 'pg';
import type { Catalog } from './catalog.ts';
import type { CheckoutJob, CheckoutOutcome, LoadResult } from './load-types.ts';
import { send } from './preflight.ts';
import { processCpuMs } from './process-cpu.ts';
import { toolCall } from './scenarios.ts';
import { productId } from './seed-catalog.ts';

/**
 * The checkout scenario's fixture and its audit. 40 catalog products take part; 5 of them get so little stock
 * that they sell out during the run, and the discount code has a usage limit it reaches: both are contended,
 * so the counts afterwards show whether stock or discount uses were ever oversold (docs/behaviour.md#checkout).
 */
const PRODUCTS = 40;
const SCARCE = 5;
const SCARCE_STOCK = 20;
const PLENTY = 1_000_000;
export const DISCOUNT_LIMIT = 100;

export type CheckoutFixture = {
  slugs: string[];
  discountCode: string;
  startedAt: Date;
  /** product id → stock at the start, and its catalog index. */
  products: Array<{ id: string; index: number; stock: number }>;
};

export type Availability<T> = { available: true; value: T } | { available: false; reason: string };

async function unknownTool(base: string, key: string, tool: string, body: unknown): Promise<{ status: number; body: unknown } | undefined> {
  const response = await send(base, toolCall(tool, body, key));
  const code = typeof response.body === 'object' && response.body !== null ? Reflect.get(response.body, 'code') : undefined;
  return code === 'unknown_tool' ? undefined : response;
}

export async function prepareCheckout(
  databaseUrl: string,
  server: { url: string; masterKey: string },
  options: { catalog: Catalog; products: number },
): Promise<Availability<CheckoutFixture>> {
  const discountCode = `BENCH${Date.now()}`;
  const created = await unknownTool(server.url, server.masterKey, 'discounts.create',
    { code: discountCode, type: 'percent', value: 10, usageLimit: DISCOUNT_LIMIT });
  if (!created) return { available: false, reason: 'discounts.create is not a tool yet' };
  if (created.status !== 200) return { available: false, reason: `discounts.create → ${created.status} ${JSON.stringify(created.body)}` };
  for (const tool of ['cart.create', 'cart.checkout']) {
    if (!await unknownTool(server.url, server.masterKey, tool, tool === 'cart.create' ? {} : { cartId: 'none' })) {
      return { available: false, reason: `${tool} is not a tool yet` };
    }
  }
  const step = Math.max(1, Math.floor(options.products / PRODUCTS));
  const chosen = Array.from({ length: PRODUCTS }, (_, k) => k * step).filter((i) => i < options.products);
  const products = chosen.map((index, k) => ({ id: productId(index), index, stock: k < SCARCE ? SCARCE_STOCK : PLENTY }));
  const fixture = { slugs: chosen.map((index) => options.catalog.product(index).slug), discountCode, products, startedAt: new Date() };
  return { available: true, value: await restartCheckout(databaseUrl, fixture) };
}

/**
 * The fixture's stock and discount uses set (again) and its clock started now: what a warm-up or an earlier server's
 * run bought before it is not part of the measured run or its audit.
 */
export async function restartCheckout(databaseUrl: string, fixture: CheckoutFixture): Promise<CheckoutFixture> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('update products set stock = t.stock from unnest($1::text[], $2::bigint[]) as t(id, stock) where products.id = t.id',
      [fixture.products.map((p) => p.id), fixture.products.map((p) => p.stock)]);
    await client.query('update discounts set usage_count = 0 where code = $1', [fixture.discountCode]);
    const now = await client.query<{ now: Date }>('select now()');
    return { ...fixture, startedAt: now.rows[0]?.now ?? new Date() };
  } finally {
    await client.end();
  }
}

export type CheckoutAudit = {
  ordersInDatabase: number;
  discountUsageCount: number;
  discountOrders: number;
  soldOut: number;
  /** Every way the database disagrees with the clients or with itself: any entry is an oversell or a lost update. */
  violations: string[];
};

/** The products that cannot sell out in a run: the ones the runs after the contended one (variants, UCP) buy. */
export function plentifulSlugs(fixture: CheckoutFixture): string[] {
  return fixture.slugs.filter((_, k) => fixture.products[k]?.stock === PLENTY);
}

/** Compares what the shoppers were told with what the database holds. */
export async function auditCheckout(databaseUrl: string, fixture: CheckoutFixture, outcome: CheckoutOutcome): Promise<CheckoutAudit> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const ids = fixture.products.map((p) => p.id);
    const orders = await client.query<{ n: number }>('select count(*)::int as n from orders where created_at >= $1', [fixture.startedAt]);
    const sold = await client.query<{ product_id: string; sold: number }>(`
      select i.product_id, sum(i.quantity)::int as sold from order_items i join orders o on o.id = i.order_id
      where o.created_at >= $1 and i.product_id = any($2) group by i.product_id`, [fixture.startedAt, ids]);
    const stock = await client.query<{ id: string; stock: string }>('select id, stock from products where id = any($1)', [ids]);
    const discount = await client.query<{ usage_count: string; usage_limit: string | null }>(
      'select usage_count, usage_limit from discounts where code = $1', [fixture.discountCode]);
    const discountOrders = await client.query<{ n: number }>(
      'select count(*)::int as n from orders where created_at >= $1 and upper(discount_code) = $2', [fixture.startedAt, fixture.discountCode]);

    const violations: string[] = [];
    const ordersInDatabase = orders.rows[0]?.n ?? 0;
    if (ordersInDatabase !== outcome.orders) violations.push(`${outcome.orders} checkouts succeeded but ${ordersInDatabase} orders exist`);
    const soldBy = new Map(sold.rows.map((row) => [row.product_id, row.sold]));
    const stockBy = new Map(stock.rows.map((row) => [row.id, Number(row.stock)]));
    let soldOut = 0;
    for (const product of fixture.products) {
      const now = stockBy.get(product.id) ?? Number.NaN;
      const expected = product.stock - (soldBy.get(product.id) ?? 0);
      if (now < 0) violations.push(`product ${product.id} has stock ${now}`);
      if (now !== expected) violations.push(`product ${product.id}: stock ${now}, expected ${expected}`);
      if (now === 0) soldOut += 1;
    }
    const usage = Number(discount.rows[0]?.usage_count ?? Number.NaN);
    const limit = Number(discount.rows[0]?.usage_limit ?? Number.NaN);
    const used = discountOrders.rows[0]?.n ?? 0;
    if (usage !== used) violations.push(`discount usageCount ${usage} but ${used} orders carry the code`);
    if (usage > limit) violations.push(`discount used ${usage} times, limit ${limit}`);
    if (used !== outcome.discounted) violations.push(`${outcome.discounted} discounted checkouts succeeded but ${used} orders carry the code`);

    return { ordersInDatabase, discountUsageCount: usage, discountOrders: used, soldOut, violations };
  } finally {
    await client.end();
  }
}

/** Gives the fixture's products their catalog stock back, so the seeded database still matches the catalog. */
export async function restoreCatalogStock(databaseUrl: string, fixture: CheckoutFixture, catalog: Catalog): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('update products set stock = t.stock from unnest($1::text[], $2::bigint[]) as t(id, stock) where products.id = t.id',
      [fixture.products.map((p) => p.id), fixture.products.map((p) => catalog.product(p.index).stock)]);
  } finally {
    await client.end();
  }
}

/**
 * The same shoppers, fixture and audit against the baseline server's cart.create and cart.checkout: warmed up on
 * the plentiful products, then the contended run from a fresh fixture, as Butik's.
 */
export async function checkoutOnBaseline(
  databaseUrl: string,
  baselineUrl: string,
  fixture: CheckoutFixture,
  options: { durationS: number; warmupS: number; run: (job: CheckoutJob) => Promise<LoadResult>; baselinePid?: number },
): Promise<{ result: LoadResult; audit: CheckoutAudit }> {
  const job = { kind: 'checkout' as const, url: baselineUrl, key: '', discountCode: fixture.discountCode, clients: 50 };
  await options.run({ ...job, slugs: plentifulSlugs(fixture), durationS: options.warmupS });
  const fresh = await restartCheckout(databaseUrl, fixture);
  const cpuBefore = processCpuMs(options.baselinePid);
  const result = await options.run({ ...job, slugs: fresh.slugs, discountEvery: 4, durationS: options.durationS });
  const cpuAfter = processCpuMs(options.baselinePid);
  if (cpuBefore !== undefined && cpuAfter !== undefined && result.requests > 0) {
    result.serverCpuMsPerRequest = Math.round(((cpuAfter - cpuBefore) / result.requests) * 1000) / 1000;
  }
  if (!result.checkout) throw new Error('baseline checkout run returned no outcome');
  return { result, audit: await auditCheckout(databaseUrl, fresh, result.checkout) };
}
