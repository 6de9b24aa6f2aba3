import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oauthRecords } from '../../src/db/schema.ts';
import { addPerson } from '../admin/helpers.ts';
import { MISSING, WIDTHS, expectAccessible, screenshot } from './chromium.ts';
import { consoleInBrowser } from './in-browser.ts';

let reader = '';
const ASSISTANT = 'https://assistant.example/oauth/client.json';
const CSV_DIR = mkdtempSync(join(tmpdir(), 'butik-admin-import-'));

const shop = consoleInBrowser(async (t, origin) => {
  await addPerson(t.database.db, 'olga@shop.dk', 'owner');
  reader = await t.keyWith('settings:read', 'features:read', 'catalog:read', 'audit:read');
  const inAnHour = new Date(Date.now() + 3600_000);
  await t.database.db.insert(oauthRecords).values([
    { model: 'Client', id: 'client-claude', payload: { client_id: 'client-claude', client_name: 'Claude for Butik', redirect_uris: ['https://claude.example/cb'] } },
    { model: 'Grant', id: 'grant-claude', expiresAt: inAnHour, payload: { clientId: 'client-claude', accountId: 'owner', iat: 1_763_000_000, resources: { [`${origin}/api/mcp`]: 'orders:read catalog:read' } } },
    { model: 'AccessToken', id: 'at-claude', grantId: 'grant-claude', expiresAt: inAnHour, payload: { clientId: 'client-claude', grantId: 'grant-claude', iat: 1_763_500_000 } },
    // A host named by its client metadata document: listed by the host that serves the document.
    { model: 'Client', id: ASSISTANT, payload: { client_id: ASSISTANT, client_name: 'Example Assistant', redirect_uris: ['https://assistant.example/callback'] } },
    { model: 'Grant', id: 'grant-assistant', expiresAt: inAnHour, payload: { clientId: ASSISTANT, accountId: 'owner', iat: 1_763_000_000, resources: { [`${origin}/api/mcp`]: 'orders:read' } } },
  ]);
  writeFileSync(join(CSV_DIR, 'products.csv'), 'id,title,price,category\nsun_round,Round Sunglasses,89900,solbriller\nsun_square,Square Sunglasses,99900,solbriller\n');
  writeFileSync(join(CSV_DIR, 'inventory.csv'), 'product_id,quantity\nsun_round,12\nsun_square,4\n');
});
const app = shop.app;

function owner(viewport?: { width: number; height: number }) {
  return shop.signedIn('olga@shop.dk', viewport);
}

const read = async (tool: string, input: Record<string, unknown> = {}) => (await app().call(tool, input, { key: reader })).body.result;

describe.skipIf(MISSING)('settings, features, import and connected apps in a browser', () => {
  it('changes a setting and switches a feature off and on', async () => {
    const page = await owner();
    try {
      await page.goto(`${shop.origin()}/admin/settings`);
      await page.getByLabel('Shipping price (DKK, VAT incl.)').fill('39,00');
      await page.getByLabel('A UCP checkout may combine several discount codes').check();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/done=saved/);
      expect(await page.getByRole('status').textContent()).toContain('The settings were saved.');
      expect(await read('settings.get')).toMatchObject({ shippingDkk: 3900, stackDiscountCodes: true });

      await page.getByRole('link', { name: 'Switch off checkout' }).click();
      await page.getByRole('button', { name: 'Switch off' }).click();
      await page.waitForURL(/done=switched/);
      expect((await read('features.list')).find((flag: { key: string }) => flag.key === 'checkout').enabled).toBe(false);
      await page.getByRole('button', { name: 'Switch on checkout' }).click();
      await page.waitForURL(/done=switched/);
      expect((await read('features.list')).find((flag: { key: string }) => flag.key === 'checkout').enabled).toBe(true);

      await page.goto(`${shop.origin()}/admin/activity?tool=settings.update`);
      expect(await page.locator('article.entry').first().textContent()).toContain('settings.update');
    } finally {
      await page.close();
    }
  });

  it('uploads CSV files, shows the dry run, then applies them and shows the import in Activity', async () => {
    const page = await owner();
    try {
      await page.goto(`${shop.origin()}/admin/import`);
      await page.getByLabel('CSV files').setInputFiles([join(CSV_DIR, 'products.csv'), join(CSV_DIR, 'inventory.csv')]);
      await page.getByRole('button', { name: 'Check (dry run)' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('Dry run: nothing was written.');
      expect((await app().call('products.get', { slug: 'sun-round' }, { key: reader })).status).toBe(404);
      await screenshot(page, 'admin-import-dry-run-1440');

      await page.getByRole('button', { name: 'Apply the import' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('The import was applied:');
      expect(await read('products.get', { slug: 'sun-round' })).toMatchObject({ priceDkk: 89900, stock: 12 });
      await page.getByRole('link', { name: 'See it in Activity' }).click();
      const entry = page.locator('article.entry').first();
      expect(await entry.textContent()).toContain('Channel: admin');
      expect(await entry.textContent()).toContain('olga@shop.dk (owner)');
    } finally {
      await page.close();
    }
  });

  it('revokes a connected app\'s access after its confirmation page', async () => {
    const page = await owner();
    try {
      await page.goto(`${shop.origin()}/admin/apps`);
      expect(await page.getByRole('heading', { name: 'Claude for Butik' }).count()).toBe(1);
      expect(await page.getByRole('heading', { name: 'Example Assistant' }).count()).toBe(1);
      expect(await page.getByText('assistant.example', { exact: true }).count()).toBe(1);
      await page.getByRole('link', { name: 'Revoke access Claude for Butik' }).click();
      await page.waitForURL(/\/admin\/apps\/grants\/grant-claude\/revoke$/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Revoke this app\'s access?');
      expect(await page.locator('main').textContent()).toContain('stop working at once');
      await page.getByRole('button', { name: 'Revoke access' }).click();
      await page.waitForURL(/done=grant/);
      expect(await page.getByRole('status').textContent()).toContain('The access was revoked');
      expect(await page.getByText('Registered, not yet approved').count()).toBe(1);
    } finally {
      await page.close();
    }
  });

  it('passes axe on the new pages at 1440 and 375 px, without horizontal scrolling, and saves screenshots', async () => {
    const paths = ['/admin/settings', '/admin/import', '/admin/apps', '/admin/apps/grants/grant-assistant/revoke', '/admin/activity?tool=import'];
    for (const viewport of WIDTHS) {
      const page = await owner(viewport);
      try {
        for (const path of paths) {
          const response = await page.goto(`${shop.origin()}${path}`);
          expect(response?.status(), path).toBe(200);
          await expectAccessible(page, `${path} at ${viewport.width}`);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${path} at ${viewport.width}`).toBeLessThanOrEqual(0);
          await screenshot(page, `admin${path.replaceAll('/', '-').replace('-admin', '').replace('?tool=', '-')}-${viewport.width}`);
        }
      } finally {
        await page.close();
      }
    }
  }, 120_000);
});
