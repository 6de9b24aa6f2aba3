import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_KEY, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { page, postMultipart, staffCookie } from './helpers.ts';

const FLOWER_SHOP = join(import.meta.dirname, '..', 'fixtures', 'ucp-flower-shop');
const fixture = (name: string) => ({ name, text: readFileSync(join(FLOWER_SHOP, name), 'utf8') });

let t: TestApp;
let owner = '';
let manager = '';
let reader = '';

beforeAll(async () => {
  t = await createTestApp();
  owner = await staffCookie(t, 'olga@shop.dk', 'owner');
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
  reader = await t.keyWith('catalog:read', 'audit:read', 'settings:read');
});
afterAll(async () => t.close());

async function csrf(cookie: string) {
  return (await page(t.app, cookie, '/admin/import')).csrf ?? '';
}

/** The hidden fields the dry-run page's Apply form carries, as a browser would send them back. */
function applyFields(body: string): Record<string, string> {
  const form = /<form[^>]*action="\/admin\/import"[^>]*>((?:(?!<\/form>).)*value="apply"(?:(?!<\/form>).)*)<\/form>/s.exec(body)?.[1] ?? '';
  const decode = (text: string) => text.replace(/&#10;/g, '\n').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [decode(match[1] ?? ''), decode(match[2] ?? '')]));
}

describe('the import page', () => {
  it('checks uploaded files in a dry run that writes nothing, then applies exactly them as the owner', async () => {
    const files = [fixture('products.csv'), fixture('inventory.csv'), fixture('discounts.csv'), fixture('payment_instruments.csv')];
    const dry = await postMultipart(t.app, owner, '/admin/import', { _csrf: await csrf(owner), mode: 'check', currency: 'usd' }, files);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.body).toContain('Dry run: nothing was written. It would do this:');
    expect(dry.body).toMatch(/<td data-label="Rows">products\.csv<\/td><td data-label="Created" class="num">6<\/td>/);
    expect(dry.body).toContain('Skipped payment_instruments.csv: not a file the import knows.');
    expect((await t.call('products.get', { slug: 'bouquet-roses' }, { key: reader })).status).toBe(404);

    const applied = await postMultipart(t.app, owner, '/admin/import', applyFields(dry.body));
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.body).toContain('The import was applied:');
    expect(applied.body).toContain('href="/admin/activity?tool=import"');
    expect((await t.call('settings.get', {}, { key: reader })).body.result.currency).toBe('USD');
    expect((await t.call('products.get', { slug: 'bouquet-roses' }, { key: reader })).body.result.priceDkk).toBe(3500);
    const entries = (await t.call('audit.list', { tool: 'import', limit: 100 }, { key: reader })).body.result as Array<Record<string, any>>;
    expect(entries.length).toBeGreaterThan(1);
    for (const entry of entries) expect(entry).toMatchObject({ channel: 'admin', actor: { kind: 'staff', name: 'olga@shop.dk (owner)' } });
    expect(new Set(entries.map((entry) => entry.targetType))).toEqual(new Set(['product', 'category', 'discount', 'settings']));

    const activity = await page(t.app, owner, '/admin/activity?tool=import');
    expect(activity.response.body).toContain('<span>Channel: admin</span>');
    expect(activity.response.body).toMatch(/<h2 id="e-[^"]+">Product [^<]+<\/h2>\n<p class="meta"><span>What: <code>import<\/code>/);
  });

  it('lists every problem as file:line and writes nothing', async () => {
    const broken = { name: 'products.csv', text: 'id,title,price\nok_one,Fine product,100\nbad_one,Broken,twelve\n' };
    const refused = await postMultipart(t.app, owner, '/admin/import', { _csrf: await csrf(owner), mode: 'check' }, [broken]);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Nothing was written.');
    expect(refused.body).toMatch(/<code>products\.csv:3<\/code> price: must be a whole number of minor units/);
    expect((await t.call('products.get', { slug: 'ok-one' }, { key: reader })).status).toBe(404);
  });

  it('refuses an upload without its CSRF token, and refuses a manager before reading the upload', async () => {
    const forged = await postMultipart(t.app, owner, '/admin/import', { mode: 'apply' }, [fixture('products.csv')]);
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('The form has expired');
    const wrong = await postMultipart(t.app, owner, '/admin/import', { _csrf: 'not-the-token', mode: 'apply' }, [fixture('products.csv')]);
    expect(wrong.statusCode).toBe(403);

    expect((await page(t.app, manager, '/admin/import')).response.statusCode).toBe(403);
    const byManager = await postMultipart(t.app, manager, '/admin/import', { _csrf: await csrf(owner), mode: 'apply' }, [fixture('products.csv')]);
    expect(byManager.statusCode).toBe(403);
    expect(byManager.body).toContain('Your role does not allow this.');
    const anonymous = await t.app.inject({ method: 'POST', url: '/admin/import', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' });
    expect(anonymous.statusCode).toBe(303);
  });

  it('is the owner command the commands route serves to the master key, audited as the master key', async () => {
    const files = [{ name: 'products.csv', text: 'id,title,price\nroute_one,Route Product,4200\n' }];
    const response = await t.app.inject({
      method: 'POST', url: '/api/v1/commands/import', headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
      payload: { files, dryRun: false },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result).toMatchObject({ dryRun: false, problems: [], counts: { 'products.csv': { created: 1 } } });
    const [entry] = (await t.call('audit.list', { tool: 'import', targetSlug: 'route-one', limit: 1 }, { key: reader })).body.result;
    expect(entry).toMatchObject({ channel: 'cli', actor: { kind: 'master' } });
  });

  it('refuses a part cut at the size limit instead of applying what is left of it', async () => {
    await postMultipart(t.app, owner, '/admin/import', applyFields((await postMultipart(t.app, owner, '/admin/import',
      { _csrf: await csrf(owner), mode: 'check' }, [{ name: 'products.csv', text: 'id,title,price,stock\ncut_one,Cut short,100,7\n' }])).body));
    expect((await t.call('products.get', { slug: 'cut-one' }, { key: reader })).body.result.stock).toBe(7);
    // 15 in a cell padded far past the multipart field limit: cut, it would read as 0.
    const padded = `product_id,quantity\ncut_one,${'0'.repeat(15 * 1024 * 1024)}15\n`;
    const refused = await postMultipart(t.app, owner, '/admin/import', { _csrf: await csrf(owner), mode: 'apply', 'carried:inventory.csv': padded });
    expect(refused.statusCode).toBe(413);
    expect(refused.body).toContain('longer than the import takes');
    expect(refused.body).toContain('Upload at most 10 MB');
    expect((await t.call('products.get', { slug: 'cut-one' }, { key: reader })).body.result.stock).toBe(7);
  });

  it('applies only the very files a dry run checked, and nothing without one', async () => {
    const checked = { name: 'products.csv', text: 'id,title,price\nbound_one,Bound product,4900\n' };
    const dry = await postMultipart(t.app, owner, '/admin/import', { _csrf: await csrf(owner), mode: 'check' }, [checked]);
    expect(dry.statusCode, dry.body).toBe(200);
    const fields = applyFields(dry.body);
    const carried = Buffer.from(fields['carried:products.csv'] ?? '', 'base64').toString('utf8');
    expect(carried).toBe(checked.text);

    const swapped = { ...fields, 'carried:products.csv': Buffer.from(carried.replace('4900', '1')).toString('base64') };
    const refused = await postMultipart(t.app, owner, '/admin/import', swapped);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('not the files the dry run checked');
    expect(refused.body).toContain('Upload the files again');
    const unchecked = await postMultipart(t.app, owner, '/admin/import', { _csrf: await csrf(owner), mode: 'apply' }, [checked]);
    expect(unchecked.statusCode).toBe(422);
    expect(unchecked.body).toContain('not the files the dry run checked');
    const { checked: _seal, ...unsealed } = fields;
    expect((await postMultipart(t.app, owner, '/admin/import', unsealed)).statusCode).toBe(422);
    expect((await t.call('products.get', { slug: 'bound-one' }, { key: reader })).status).toBe(404);

    const applied = await postMultipart(t.app, owner, '/admin/import', fields);
    expect(applied.statusCode, applied.body).toBe(200);
    expect((await t.call('products.get', { slug: 'bound-one' }, { key: reader })).body.result.priceDkk).toBe(4900);
  });

  it('refuses a file over the size cap with a page that says what to do', async () => {
    const huge = { name: 'products.csv', text: `id,title,price\n${'a'.repeat(10 * 1024 * 1024 + 10)}` };
    const refused = await postMultipart(t.app, owner, '/admin/import', { _csrf: await csrf(owner), mode: 'check' }, [huge]);
    expect(refused.statusCode).toBe(413);
    expect(refused.body).toContain('Upload at most 10 MB');
  });
});
