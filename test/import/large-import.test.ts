import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImportArgs, runImport } from '../../src/import/command.ts';
import { listeningTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCategory, master } from '../helpers/fixtures.ts';

const ROWS = 150_000;
/** Every this many rows the stock changes; the other rows leave it as it is. */
const CHANGED_EVERY = 1_000;

let t: TestApp;
let base = '';
beforeAll(async () => {
  ({ t, base } = await listeningTestApp());
  const category = await createCategory(t);
  // The shop's products, written straight into the store: making them one by one would be the slow part of the test.
  await t.database.db.execute(sql`insert into products (id, slug, sku, name, description, price_dkk, stock, category_id)
    select 'bulk-' || n, 'bulk-' || n, 'bulk_' || n, 'Bulk ' || n, 'Bulk', 100, 5, ${category.id}
    from generate_series(0, ${ROWS - 1}) as n`);
}, 120_000);
afterAll(async () => { await t?.close(); });

function inventoryFile(): string {
  const lines = ['product_id,quantity'];
  for (let n = 0; n < ROWS; n += 1) lines.push(`bulk_${n},${n % CHANGED_EVERY === 0 ? 7 : 5}`);
  const dir = mkdtempSync(join(tmpdir(), 'butik-large-import-'));
  writeFileSync(join(dir, 'inventory.csv'), `${lines.join('\n')}\n`);
  return dir;
}

describe('an inventory.csv of 150,000 rows', () => {
  it('is imported in batches while the server goes on answering', async () => {
    const dir = inventoryFile();
    let importFinished = false;
    // The import runs in the server's own process, as the console's and the commands route's do.
    const importing = runImport(t.database.db, parseImportArgs([dir]), new Date()).finally(() => { importFinished = true; });
    const health = await fetch(`${base}/healthz`);
    expect(await health.json()).toEqual({ ok: true });
    expect(importFinished, 'the import was already over when /healthz answered').toBe(false);

    const report = await importing;
    expect(report.stderr).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.stdout).toEqual([`inventory.csv: 0 created, ${ROWS / CHANGED_EVERY} updated, ${ROWS - ROWS / CHANGED_EVERY} unchanged`]);
    expect((await t.call('products.get', { slug: 'bulk-149000' })).body.result.stock).toBe(7);
    expect((await t.call('products.get', { slug: 'bulk-149999' })).body.result.stock).toBe(5);
    const [entry] = (await t.call('audit.list', { tool: 'import', targetId: 'bulk-149000', limit: 1 }, master)).body.result;
    expect(entry).toMatchObject({ targetType: 'product', before: { stock: 5 }, after: { stock: 7 } });
  }, 300_000);
});
