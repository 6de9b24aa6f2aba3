import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baselineSearch } from '../../bench/baseline-search.ts';
import { CATALOG } from '../../bench/catalog.ts';
import { plainPaging, searchWithFilters, searchWithQ } from '../../bench/scenarios.ts';
import { seedCatalog } from '../../bench/seed-catalog.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

/**
 * The benchmark compares Butik with a baseline server that sends the same SQL by hand; the comparison means
 * something only if both answer alike. PostgreSQL only: the seeder and the baseline speak to PostgreSQL.
 */
const url = process.env.TEST_DATABASE_URL;

describe.runIf(url !== undefined)('the bench baseline on a seeded catalog', () => {
  let t: TestApp;
  let pool: pg.Pool;
  beforeAll(async () => {
    t = await createTestApp();
    const schema = z.object({ rows: z.tuple([z.object({ schema: z.string() })]) })
      .parse(await t.database.db.execute(sql`select current_schema() as schema`)).rows[0].schema;
    const inSchema = `${url}?options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
    await seedCatalog(inSchema, CATALOG, { products: 3000, orders: 50 });
    pool = new pg.Pool({ connectionString: inSchema, max: 2 });
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await t?.close();
  });

  it('answers every scenario search exactly as products.search does', async () => {
    const bodies = [
      ...searchWithQ(), ...searchWithFilters(CATALOG), ...plainPaging(),
      { q: 'aviatr' }, { q: 'solbriller', offset: 1190 }, { q: 'titanium', categorySlug: 'briller', limit: 7, offset: 3 },
    ];
    for (const body of bodies) {
      const butik = await t.call('products.search', body);
      expect(butik.status, JSON.stringify(body)).toBe(200);
      expect(await baselineSearch(pool, body), JSON.stringify(body)).toEqual(butik.body.result);
    }
  });

  it('seeds the catalog it was asked for, with orders that point at its products', async () => {
    const counts = await pool.query<{ products: number; orders: number; items: number }>(`select
      (select count(*)::int from products) as products, (select count(*)::int from orders) as orders,
      (select count(*)::int from order_items i join products p on p.id = i.product_id) as items`);
    expect(counts.rows[0]).toMatchObject({ products: 3000, orders: 50 });
    expect(counts.rows[0]?.items).toBeGreaterThanOrEqual(50);
  });
});
