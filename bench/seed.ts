import { parseArgs } from 'node:util';
import { CATALOG } from './catalog.ts';
import { benchDatabaseUrl, prepareDatabase } from './database.ts';
import { seedCatalog } from './seed-catalog.ts';

/**
 * npm run bench:seed -- --products 100000 [--orders 0] [--database-url postgres://…/butik_bench]
 * Fills a PostgreSQL database (created if absent; default butik_bench on 127.0.0.1, or BENCH_DATABASE_SERVER)
 * with the shared catalog, replacing everything that was in it.
 */
const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    orders: { type: 'string', default: '0' },
    'database-url': { type: 'string' },
  },
});

const products = Number(values.products);
const orders = Number(values.orders);
if (!Number.isInteger(products) || products < 1 || !Number.isInteger(orders) || orders < 0) {
  process.stderr.write('usage: npm run bench:seed -- --products N [--orders N] [--database-url URL]\n');
  process.exit(2);
}
// Never DATABASE_URL: seeding empties the database first, so it only ever touches one named on purpose.
const url = values['database-url'] ?? benchDatabaseUrl('butik_bench');

const started = performance.now();
await prepareDatabase(url);
await seedCatalog(url, CATALOG, { products, orders });
process.stderr.write(`seeded ${new URL(url).pathname.slice(1)}: ${products} products, ${orders} orders in `
  + `${((performance.now() - started) / 1000).toFixed(1)}s\n`);
