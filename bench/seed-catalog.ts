import pg from 'pg';
import type { Catalog, CatalogProduct } from './catalog.ts';
import { progressBar } from './progress.ts';
import { EYEWEAR_VOCABULARY } from '../src/seed/search-vocabulary.ts';

/**
 * Deterministic ids, so tie-breaks (newest first, then id) and therefore whole result pages are the same
 * in every run and in every system loaded with the same catalog.
 */
export function productId(i: number): string {
  return `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}
const categoryId = (i: number) => `00000000-0000-4000-9000-${i.toString(16).padStart(12, '0')}`;

const BATCH = 5_000;

/** One to three images per product, like a real shop's gallery. */
function images(product: CatalogProduct, i: number): string {
  const count = 1 + (i % 3);
  return JSON.stringify(Array.from({ length: count }, (_, k) => ({
    url: `https://img.butik.test/products/${product.slug}/${k + 1}.jpg`,
    alt: k === 0 ? product.name : `${product.name}, billede ${k + 1}`,
  })));
}

/** What seeding needs of a connection; node-postgres's client and PGlite both have it. */
export type SqlClient = { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> };

type Columns = {
  id: string[]; slug: string[]; name: string[]; description: string[]; brand: string[]; price: number[];
  stock: number[]; featured: boolean[]; frame: string[]; lens: Array<string | null>; images: string[];
  category: string[]; attributes: string[]; created: string[];
};

function columnsFor(catalog: Catalog, categoryIds: Map<string, string>, from: number, to: number): Columns {
  const c: Columns = {
    id: [], slug: [], name: [], description: [], brand: [], price: [], stock: [], featured: [], frame: [], lens: [],
    images: [], category: [], attributes: [], created: [],
  };
  for (let i = from; i < to; i++) {
    const p = catalog.product(i);
    const category = categoryIds.get(p.categorySlug);
    if (category === undefined) throw new Error(`product ${i} names unknown category ${p.categorySlug}`);
    c.id.push(productId(i));
    c.slug.push(p.slug);
    c.name.push(p.name);
    c.description.push(p.description);
    c.brand.push(p.brand);
    c.price.push(p.priceDkk);
    c.stock.push(p.stock);
    c.featured.push(p.featured);
    c.frame.push(p.frameColor);
    c.lens.push(p.lensColor);
    c.images.push(images(p, i));
    c.category.push(category);
    c.attributes.push(JSON.stringify({ sku: p.sku }));
    c.created.push(p.createdAt);
  }
  return c;
}

const INSERT_PRODUCTS = `
  insert into products (id, slug, name, description, brand, price_dkk, stock, featured, frame_color, lens_color,
    images, category_id, attributes, created_at, updated_at)
  select id, slug, name, description, brand, price, stock, featured, frame, lens, images, category, attributes, created, created
  from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::boolean[],
    $9::text[], $10::text[], $11::jsonb[], $12::text[], $13::jsonb[], $14::timestamptz[])
    as t(id, slug, name, description, brand, price, stock, featured, frame, lens, images, category, attributes, created)`;

/**
 * Secondary indexes of a table (not those backing a primary key or unique constraint), as re-creatable DDL.
 * Bulk loads drop them and build them once at the end: far faster than maintaining GIN indexes row by row.
 */
async function secondaryIndexes(client: SqlClient, table: string): Promise<Array<{ name: string; ddl: string }>> {
  const { rows } = await client.query(`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as ddl
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = $1::regclass
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
    order by c.relname`, [table]);
  return rows as Array<{ name: string; ddl: string }>;
}

export type SeedOptions = { products: number; orders: number };

/** Replaces everything in the bench database with the first `products` catalog products and `orders` orders. */
export async function seedCatalog(url: string, catalog: Catalog, options: SeedOptions): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set maintenance_work_mem = '512MB'`);
    await fillCatalog(client, catalog, options);
  } finally {
    await client.end();
  }
}

/** The catalog (and orders) through a connection of either kind; the embedded footprint seeds PGlite with it. */
export async function fillCatalog(client: SqlClient, catalog: Catalog, options: SeedOptions): Promise<void> {
  await client.query('set synchronous_commit = off');
  await client.query(`truncate table ucp_webhook_outbox, ucp_payment_actions, ucp_orders, ucp_checkout_sessions, ucp_carts, order_refunds, order_items, orders, cart_items,
    carts, products, categories, discounts, audit_entries, idempotency_keys, api_keys`);

  // The eyewear shop's words, as the demo shop has them: the bench searches in English as agents do.
  await client.query(`insert into settings (key, value) values ('searchVocabulary', $1::jsonb)
    on conflict (key) do update set value = excluded.value`, [JSON.stringify({ value: EYEWEAR_VOCABULARY })]);

  const categoryIds = new Map(catalog.categories.map((c, i) => [c.slug, categoryId(i)]));
  for (const [i, c] of catalog.categories.entries()) {
    await client.query('insert into categories (id, slug, name, description) values ($1, $2, $3, $4)',
      [categoryId(i), c.slug, c.name, `${c.name} (${c.en}) i alle former og farver.`]);
  }

  const dropped = await secondaryIndexes(client, 'products');
  for (const index of dropped) await client.query(`drop index "${index.name}"`);
  const bar = progressBar('products', options.products);
  for (let from = 0; from < options.products; from += BATCH) {
    const to = Math.min(options.products, from + BATCH);
    const c = columnsFor(catalog, categoryIds, from, to);
    await client.query(INSERT_PRODUCTS, [c.id, c.slug, c.name, c.description, c.brand, c.price, c.stock, c.featured,
      c.frame, c.lens, c.images, c.category, c.attributes, c.created]);
    bar.tick(to);
  }
  bar.done();
  const indexBar = progressBar('product indexes', dropped.length);
  for (const [n, index] of dropped.entries()) {
    await client.query(index.ddl);
    indexBar.tick(n + 1);
  }
  indexBar.done(dropped.map((index) => index.name).join(', '));

  if (options.orders > 0) await seedOrders(client, options);
  // Sets hint bits and the visibility map now, so the first timed requests do not pay for it.
  await client.query('vacuum (analyze) products, categories, orders, order_items');
}

const ORDER_BATCH = 50_000;
const STATUSES = ['pending_payment', 'pending', 'paid', 'processing', 'shipped', 'delivered', 'completed', 'cancelled', 'refunded'];

/**
 * Orders with one to three items over two years from 50,000 customers; generated inside PostgreSQL
 * (no round trip per row). Item lines point at catalog products and carry their prices.
 */
async function seedOrders(client: SqlClient, options: SeedOptions): Promise<void> {
  const bar = progressBar('orders', options.orders);
  for (let from = 1; from <= options.orders; from += ORDER_BATCH) {
    const to = Math.min(options.orders, from + ORDER_BATCH - 1);
    await client.query(`
      with lines as (
        select g, k, p.id as product_id, p.name, p.price_dkk, 1 + ((g + k) % 2) as qty
        from generate_series($1::int, $2::int) g
        cross join lateral generate_series(1, 1 + g % 3) k
        join products p on p.id = '00000000-0000-4000-8000-' || lpad(to_hex(((g::bigint * 7919 + k * 104729) % $3)::int), 12, '0')
      ), totals as (
        select g, sum(price_dkk * qty) as subtotal from lines group by g
      ), placed as (
        insert into orders (id, email, status, shipping_name, shipping_address, shipping_zip, shipping_city,
          subtotal_dkk, shipping_dkk, discount_dkk, total_dkk, vat_oere, channel, payment_method, created_at, updated_at)
        select 'order-' || lpad(g::text, 8, '0'),
          'kunde' || (g % 50000) || '@example.dk',
          ($4::text[])[1 + (g * 31) % cardinality($4::text[])],
          'Kunde ' || (g % 50000), 'Vestergade ' || (1 + g % 120), lpad((1000 + g % 8900)::text, 4, '0'), 'København',
          subtotal, case when subtotal >= 50000 then 0 else 4900 end, 0,
          subtotal + case when subtotal >= 50000 then 0 else 4900 end,
          round((subtotal + case when subtotal >= 50000 then 0 else 4900 end) / 5.0),
          case when g % 4 = 0 then 'mcp' else 'api' end, case when g % 5 = 0 then 'invoice' else 'card' end,
          timestamptz '2026-01-01' - make_interval(secs => (g::bigint * 2654435761) % 63072000),
          timestamptz '2026-01-01' - make_interval(secs => (g::bigint * 2654435761) % 63072000)
        from totals
        returning id
      )
      insert into order_items (id, order_id, product_id, product_name, unit_price_dkk, quantity)
      select 'item-' || g || '-' || k, 'order-' || lpad(g::text, 8, '0'), product_id, name, price_dkk, qty
      from lines`, [from, to, options.products, STATUSES]);
    bar.tick(to);
  }
  bar.done();
}

/**
 * Takes out what earlier runs left in a reused database: their carts, UCP sessions, orders (the seeded ones keep
 * their `order-` ids), audit entries, idempotency records, discount codes and keys. Otherwise every run adds a few
 * thousand orders dated today, and the console's overview, which sums today's and this week's orders, was timed
 * over 112,000 of them after a day of runs (187 ms) instead of over the run's own few thousand (30 ms).
 */
export async function forgetEarlierRuns(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('delete from ucp_checkout_sessions');
    // Their lines and UCP's cart links go with them; so do the items, UCP records and outbox rows of the orders.
    await client.query('delete from carts');
    await client.query(`delete from orders where id not like 'order-%'`);
    await client.query('delete from audit_entries');
    await client.query('delete from idempotency_keys');
    await client.query(`delete from discounts where code like 'BENCH%' or code like 'HOT%'`);
    await client.query(`delete from api_keys where name = 'bench'`);
    await client.query('commit');
    await client.query('vacuum analyze carts, cart_items, orders, order_items, audit_entries');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/** True when the database already holds exactly this catalog (same size, same last product), so a run may reuse it. */
export async function catalogMatches(url: string, catalog: Catalog, options: SeedOptions): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ products: string; orders: string; last: string | null }>(`
      select (select count(*) from products) as products, (select count(*) from orders) as orders,
        (select slug from products where id = $1) as last`, [productId(options.products - 1)]);
    const row = rows[0];
    return row !== undefined && Number(row.products) === options.products && Number(row.orders) >= options.orders
      && row.last === catalog.product(options.products - 1).slug;
  } finally {
    await client.end();
  }
}
