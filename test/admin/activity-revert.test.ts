import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImportArgs, runImport } from '../../src/import/command.ts';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let owner = '';
let manager = '';
let viewer = '';

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: 'http://butik.test' });
  owner = await staffCookie(t, 'olga@shop.dk', 'owner');
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
  viewer = await staffCookie(t, 'vera@shop.dk', 'viewer');
});
afterAll(async () => t.close());

async function latestEntryId(tool: string, targetId: string): Promise<string> {
  const [entry] = (await t.call('audit.list', { tool, targetId, limit: 1 }, master)).body.result;
  return entry.id;
}

/** The article of one entry on the Activity page. */
function entryArticle(body: string, entryId: string): string {
  return new RegExp(`<article class="entry" aria-labelledby="e-${entryId}">(.*?)</article>`, 's').exec(body)?.[1] ?? '';
}

describe('reverting from Activity needs the rights of the change', () => {
  it('shows a manager Revert on a product change but a plain refusal on a currency change, and refuses the forged revert', async () => {
    await t.call('settings.update', { currency: 'EUR' }, master);
    const currencyEntry = await latestEntryId('settings.update', 'currency');
    await t.call('products.update', { slug: 'aviator-classic', patch: { stock: 7 } }, master);
    const productEntry = await latestEntryId('products.update', (await t.call('products.get', { slug: 'aviator-classic' })).body.result.id);

    const activity = (await page(t.app, manager, '/admin/activity')).response.body;
    expect(entryArticle(activity, productEntry)).toContain(`href="/admin/activity/${productEntry}/revert"`);
    const currency = entryArticle(activity, currencyEntry);
    expect(currency).not.toContain('/revert"');
    expect(currency).toContain('This change was made with settings.update, which needs scope settings:write; the manager role does not have it, so only an owner can revert it.');

    const confirm = await page(t.app, manager, `/admin/activity/${currencyEntry}/revert`);
    expect(confirm.response.statusCode).toBe(403);
    expect(confirm.response.body).toContain('only an owner can revert it');
    expect(confirm.response.body).not.toContain('Revert the change</button>');

    const productConfirm = await page(t.app, manager, `/admin/activity/${productEntry}/revert`);
    const forged = await post(t.app, manager, `/admin/activity/${currencyEntry}/revert`, { _csrf: productConfirm.csrf ?? '' });
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('only an owner can revert it');
    expect((await t.call('settings.get', {}, master)).body.result.currency).toBe('EUR');

    const byOwner = (await page(t.app, owner, '/admin/activity')).response.body;
    expect(entryArticle(byOwner, currencyEntry)).toContain(`href="/admin/activity/${currencyEntry}/revert"`);
    const ownerConfirm = await page(t.app, owner, `/admin/activity/${currencyEntry}/revert`);
    expect((await post(t.app, owner, `/admin/activity/${currencyEntry}/revert`, { _csrf: ownerConfirm.csrf ?? '' })).statusCode).toBe(303);
    expect((await t.call('settings.get', {}, master)).body.result.currency).toBe('DKK');
  });

  it('tells a viewer in plain words why there is no Revert', async () => {
    await t.call('features.set', { key: 'checkout', enabled: false }, master);
    const entry = await latestEntryId('features.set', 'checkout');
    const article = entryArticle((await page(t.app, viewer, '/admin/activity')).response.body, entry);
    expect(article).not.toContain('/revert"');
    expect(article).toContain('Reverting a change needs scope audit:revert, and the viewer role does not have it.');
    await t.call('features.set', { key: 'checkout', enabled: true }, master);
  });

  it('leaves an import\'s changes to an owner', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'butik-activity-import-'));
    writeFileSync(join(dir, 'products.csv'), 'id,title,price\nactivity_import,Imported here,100\n');
    expect((await runImport(t.database.db, parseImportArgs([dir]), new Date())).exitCode).toBe(0);
    const entry = await latestEntryId('import', (await t.call('products.get', { slug: 'activity-import' })).body.result.id);
    const byManager = entryArticle((await page(t.app, manager, '/admin/activity?tool=import')).response.body, entry);
    expect(byManager).not.toContain('/revert"');
    expect(byManager).toContain('which only the shop owner runs, so only the shop owner can revert it');
    const byOwner = entryArticle((await page(t.app, owner, '/admin/activity?tool=import')).response.body, entry);
    expect(byOwner).toContain(`href="/admin/activity/${entry}/revert"`);
  });
});
