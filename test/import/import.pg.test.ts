import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, customerAddresses, customers, products, promotions, settings, shippingRates } from '../../src/db/schema.ts';
import { parseImportArgs, runImport } from '../../src/import/command.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { runButik } from '../helpers/butik-process.ts';
import { master } from '../helpers/fixtures.ts';
import { processDatabase } from '../helpers/process-db.ts';

const FLOWER_SHOP = join(import.meta.dirname, '..', 'fixtures', 'ucp-flower-shop');

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** A directory holding the given files, for imports the fixture does not cover. */
function shopFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'butik-import-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const importArgs = (...args: string[]) => runImport(t.database.db, parseImportArgs(args), new Date());

describe('butik import of the UCP samples flower shop', () => {
  let first: Awaited<ReturnType<typeof runImport>>;
  beforeAll(async () => { first = await importArgs(FLOWER_SHOP, '--currency', 'usd'); });

  it('loads every known file as it is and lists the files it skipped', () => {
    expect(first.exitCode, first.stderr.join('\n')).toBe(0);
    expect(first.stdout).toEqual([
      'currency: 1 created, 0 updated, 0 unchanged',
      'categories: 1 created, 0 updated, 0 unchanged',
      'products.csv: 6 created, 0 updated, 0 unchanged',
      'discounts.csv: 3 created, 0 updated, 0 unchanged',
      'shipping_rates.csv: 3 created, 0 updated, 0 unchanged',
      'promotions.csv: 2 created, 0 updated, 0 unchanged',
      'customers.csv: 3 created, 0 updated, 0 unchanged',
      'addresses.csv: 3 created, 0 updated, 0 unchanged',
    ]);
    expect(first.stderr).toEqual([
      `skipped ${join(FLOWER_SHOP, 'NOTICE.md')}: not a file butik import knows`,
      `skipped ${join(FLOWER_SHOP, 'payment_instruments.csv')}: not a file butik import knows`,
    ]);
  });

  it('makes products the tools sell: slug from the id, price in cents, stock from inventory.csv, title as description', async () => {
    const roses = await t.call('products.get', { slug: 'bouquet-roses' });
    expect(roses.body.result).toMatchObject({
      slug: 'bouquet-roses', name: 'Bouquet of Red Roses', description: 'Bouquet of Red Roses', priceDkk: 3500, stock: 1000,
      images: ['https://example.com/roses.jpg'], category: { slug: 'uncategorized', name: 'Uncategorized' },
    });
    expect((await t.call('products.get', { slug: 'gardenias' })).body.result).toMatchObject({ stock: 0, priceDkk: 2000 });
    const [row] = await t.database.db.select({ sku: products.sku }).from(products).where(eq(products.slug, 'pot-ceramic'));
    expect(row?.sku).toBe('pot_ceramic');
  });

  it('sets the shop currency, which orders then record', async () => {
    expect((await t.call('settings.get', {}, master)).body.result.currency).toBe('USD');
  });

  it('maps discount types and keeps the description as the title', async () => {
    const percent = await t.call('discounts.get', { code: '10off' }, master);
    expect(percent.body.result).toMatchObject({ code: '10OFF', type: 'percent', value: 10, active: true, usageLimit: null });
    const fixed = await t.call('discounts.get', { code: 'FIXED500' }, master);
    expect(fixed.body.result).toMatchObject({ type: 'fixed', value: 500 });
  });

  it('stores shipping rates, promotions, customers and their addresses', async () => {
    const db = t.database.db;
    expect(await db.select({ id: shippingRates.id, countryCode: shippingRates.countryCode, serviceLevel: shippingRates.serviceLevel, price: shippingRates.price })
      .from(shippingRates).orderBy(shippingRates.id)).toEqual([
      { id: 'exp-ship-intl', countryCode: 'default', serviceLevel: 'express', price: 2500 },
      { id: 'exp-ship-us', countryCode: 'US', serviceLevel: 'express', price: 1500 },
      { id: 'std-ship', countryCode: 'default', serviceLevel: 'standard', price: 500 },
    ]);
    expect(await db.select({ id: promotions.id, minSubtotal: promotions.minSubtotal, eligibleSkus: promotions.eligibleSkus })
      .from(promotions).orderBy(promotions.id)).toEqual([
      { id: 'promo_1', minSubtotal: 10000, eligibleSkus: [] },
      { id: 'promo_2', minSubtotal: null, eligibleSkus: ['bouquet_roses'] },
    ]);
    expect(await db.select({ email: customers.email }).from(customers).where(eq(customers.id, 'cust_2')))
      .toEqual([{ email: 'jane.smith@example.com' }]);
    expect(await db.select({ customerId: customerAddresses.customerId, region: customerAddresses.region, countryCode: customerAddresses.countryCode })
      .from(customerAddresses).where(eq(customerAddresses.id, 'addr_2'))).toEqual([{ customerId: 'cust_1', region: 'NY', countryCode: 'US' }]);
  });

  it('changes nothing when run again, not even a timestamp', async () => {
    const stamps = async () => {
      const [product] = await t.database.db.select({ at: sql<string>`max(${products.updatedAt})::text` }).from(products);
      const [setting] = await t.database.db.select({ at: sql<string>`${settings.updatedAt}::text` }).from(settings).where(eq(settings.key, 'currency'));
      return { product: product?.at, setting: setting?.at };
    };
    const before = await stamps();
    const again = await importArgs(FLOWER_SHOP, '--currency', 'USD');
    expect(again.exitCode).toBe(0);
    expect(again.stdout.every((line) => / 0 created, 0 updated, \d+ unchanged$/.test(line)), again.stdout.join('\n')).toBe(true);
    expect(await stamps()).toEqual(before);
  });

  it('audits what it changes in the catalog, so audit.revert undoes a row', async () => {
    const [entry] = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.tool, 'import'), eq(auditEntries.targetType, 'product')));
    expect(entry).toMatchObject({ actorKind: 'cli', channel: 'cli', before: null });
    const slug = (entry?.after as { slug: string }).slug;
    expect((await t.call('audit.revert', { entryId: entry?.id }, master)).status).toBe(200);
    expect((await t.call('products.get', { slug })).body.code).toBe('not_found');
    const restored = await importArgs(FLOWER_SHOP);
    // The revert of a creation removes the row, so the next import creates the product again.
    expect(restored.stdout).toContain('products.csv: 1 created, 0 updated, 5 unchanged');
    expect((await t.call('products.get', { slug })).status).toBe(200);
  });

  it('audits an imported shipping rate and promotion like the shipping tools do, so audit.revert puts the old price back', async () => {
    const entries = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.tool, 'import'), sql`${auditEntries.targetType} in ('shipping_rate', 'promotion')`));
    expect(entries.map((entry) => `${entry.targetType} ${entry.targetId}`).sort()).toEqual([
      'promotion promo_1', 'promotion promo_2', 'shipping_rate exp-ship-intl', 'shipping_rate exp-ship-us', 'shipping_rate std-ship',
    ]);
    const dir = shopFiles({ 'shipping_rates.csv': 'id,country_code,service_level,price,title\nstd-ship,default,standard,700,Standard\n' });
    expect((await importArgs(dir)).stdout).toEqual(['shipping_rates.csv: 0 created, 1 updated, 0 unchanged']);
    const [update] = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.tool, 'import'), eq(auditEntries.targetId, 'std-ship'))).orderBy(desc(auditEntries.at)).limit(1);
    expect(update).toMatchObject({ before: { price: 500 }, after: { price: 700 } });
    expect((await t.call('audit.revert', { entryId: update?.id }, master)).status).toBe(200);
    const listed = await t.call('shipping.list', {}, master);
    expect(listed.body.result.rates.find((rate: { id: string }) => rate.id === 'std-ship')).toMatchObject({ price: 500 });
  });

  it('updates a changed row in place and counts it', async () => {
    const dir = shopFiles({ 'inventory.csv': 'product_id,quantity\norchid_white,799\n' });
    expect((await importArgs(dir)).stdout).toEqual(['inventory.csv: 0 created, 1 updated, 0 unchanged']);
    expect((await t.call('products.get', { slug: 'orchid-white' })).body.result.stock).toBe(799);
  });
});

describe('butik import refuses what it cannot write, and writes nothing', () => {
  it.each([
    ['a price with a decimal point', 'products.csv', 'id,title,price,image_url\nmug_1,Mug,12.50,https://example.com/mug.jpg\n',
      'products.csv:2: price: must be a whole number of minor units (øre, cents), digits only'],
    ['a missing column', 'products.csv', 'id,title\nmug_1,Mug\n', 'products.csv:1: missing column price'],
    ['an image URL with a space', 'products.csv', 'id,title,price,image_url\nmug_1,Mug,1250,https://example.com/a mug.jpg\n',
      'products.csv:2: image_url: must be an absolute http(s) URL without spaces'],
    ['a percentage above 100', 'discounts.csv', 'code,type,value,description\nALL,percentage,150,Everything\n',
      'discounts.csv:2: value: a percentage is 1..100'],
    ['an unknown discount type', 'discounts.csv', 'code,type,value,description\nBOGO,buy_one,1,Two for one\n', 'discounts.csv:2: type:'],
    ['a country that is no code', 'shipping_rates.csv', 'id,country_code,service_level,price,title\nr1,Denmark,standard,500,Std\n',
      'shipping_rates.csv:2: country_code:'],
    ['eligible ids that are not JSON', 'promotions.csv', 'id,type,min_subtotal,eligible_item_ids,description\np1,free_shipping,,roses,Free\n',
      'promotions.csv:2: eligible_item_ids: must be a JSON array of product ids'],
    ['stock for a product nobody has', 'inventory.csv', 'product_id,quantity\nno_such_sku,4\n',
      'inventory.csv:2: product_id: no product "no_such_sku" in products.csv or the shop'],
    ['an address of an unknown customer', 'addresses.csv', 'id,customer_id,street_address,city,state,postal_code,country\na9,nobody,1 Road,Town,,1000,DK\n',
      'addresses.csv:2: customer_id: no customer "nobody" in customers.csv or the shop'],
  ])('%s: file:line and exit 1', async (_name, file, content, message) => {
    const dir = shopFiles({ 'products.csv': 'id,title,price,image_url\nfresh_mug,Fresh Mug,4500,https://example.com/m.jpg\n', [file]: content });
    const run = await importArgs(dir);
    expect(run.exitCode).toBe(1);
    expect(run.stderr.some((line) => line.startsWith(`${dir}/${message}`)), run.stderr.join('\n')).toBe(true);
    expect(run.stderr.at(-1)).toBe('Nothing was written.');
    expect((await t.call('products.get', { slug: 'fresh-mug' })).body.code).toBe('not_found');
  });

  it('refuses a slug another product already has', async () => {
    const dir = shopFiles({ 'products.csv': 'id,title,price,image_url\nfresh-mug,Fresh Mug,4500,\nfresh_mug,Other Mug,4500,\n' });
    const run = await importArgs(dir);
    expect(run.stderr).toContain(`${join(dir, 'products.csv')}:3: id: the slug "fresh-mug" made from "fresh_mug" belongs to another product (id "fresh-mug"); rename one of them`);
    expect((await t.call('products.get', { slug: 'fresh-mug' })).body.code).toBe('not_found');
  });

  it('checks and counts without writing on --dry-run', async () => {
    const dir = shopFiles({ 'products.csv': 'id,title,price,image_url,category,brand\nsun_hat,Sun Hat,19900,,hats,Sol\n' });
    const run = await importArgs(dir, '--dry-run', '--category', 'ignored');
    expect(run.stdout).toEqual([
      'Dry run: nothing was written. It would do this:',
      'categories: 1 created, 0 updated, 0 unchanged',
      'products.csv: 1 created, 0 updated, 0 unchanged',
    ]);
    expect((await t.call('products.get', { slug: 'sun-hat' })).body.code).toBe('not_found');
  });

  it.each([
    [['--currency', 'KRONER', FLOWER_SHOP], /--currency: "KRONER" is not an ISO 4217 currency code/],
    [['--category', 'Not A Slug', FLOWER_SHOP], /--category: "Not A Slug" is not a slug/],
    [[], /Give at least one directory or CSV file/],
    [['/no/such/dir'], /No such file or directory: \/no\/such\/dir/],
  ])('rejects the command line %j before reading anything', (args, message) => {
    expect(() => parseImportArgs(args)).toThrow(message);
  });
});

describe('butik import on the command line', () => {
  it('exits 0 with its counts, 1 with file:line problems, 2 on a usage error', async () => {
    const store = await processDatabase();
    try {
      const env = { ...store.env, LOG_LEVEL: 'silent' };
      const ok = await runButik(['import', FLOWER_SHOP, '--currency', 'USD'], env);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain('products.csv: 6 created, 0 updated, 0 unchanged');
      const bad = await runButik(['import', shopFiles({ 'discounts.csv': 'code,type,value\nX1Y,percentage,0\n' })], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/discounts\.csv:2: value: must be above 0\nNothing was written\./);
      const usage = await runButik(['import', '--currency', 'XX', FLOWER_SHOP], env);
      expect(usage.code).toBe(2);
    } finally {
      await store.drop();
    }
  });
});
