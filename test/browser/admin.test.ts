import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { issueSetupToken } from '../../src/access/staff-setup.ts';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { placeOrder, shipping } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';
import { addPerson, PASSWORD } from '../admin/helpers.ts';
import { MISSING, WIDTHS, expectAccessible, screenshot } from './chromium.ts';
import { consoleInBrowser } from './in-browser.ts';


const shop = consoleInBrowser(async (t, origin) => {
  await seedDemoStore(t.database.db, { baseUrl: origin });
  // No owner yet: the first test creates olga@shop.dk through the setup link, as a new shop would.
  await addPerson(t.database.db, 'vera@shop.dk', 'viewer');
});
const app = shop.app;
const signedInAs = shop.signedIn;


describe.skipIf(MISSING)('the console in a browser', () => {
  it('creates the first owner from the one-time setup link and signs them in', async () => {
    const token = await issueSetupToken(app().database.db, new Date());
    const page = await (await shop.browser().newContext({ viewport: WIDTHS[0] })).newPage();
    try {
      await page.goto(`${shop.origin()}/admin/setup?token=${token ?? ''}`);
      await expectAccessible(page, '/admin/setup');
      await screenshot(page, 'admin-setup-1440');
      await page.getByLabel('Email').fill('olga@shop.dk');
      await page.getByLabel(/^Password/).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create the owner account' }).click();
      await page.waitForURL(`${shop.origin()}/admin/overview`);
      expect(await page.locator('.who').textContent()).toContain('olga@shop.dk (owner)');
      const again = await page.goto(`${shop.origin()}/admin/setup?token=${token ?? ''}`);
      expect(again?.status()).toBe(404);
    } finally {
      await page.close();
    }
  });

  it('shows an API key change with its diff in Activity and reverts it', async () => {
    const key = await app().keyWith('products:write');
    const changed = await app().call('products.update', { slug: 'aviator-classic', patch: { priceDkk: 99900 } }, { key });
    expect(changed.status).toBe(200);
    const page = await signedInAs('olga@shop.dk');
    try {
      await page.goto(`${shop.origin()}/admin/activity`);
      const entry = page.locator('article.entry').first();
      await expect.poll(() => entry.textContent()).toContain('products.update');
      expect(await entry.locator('td[data-label="Before"]').first().textContent()).toMatch(/^DKK\s1,299\.00$/);
      expect(await entry.locator('td[data-label="After"] data').first().getAttribute('value')).toBe('99900');
      // The README's picture of Activity: an agent's change with its diff; the visible screen only, so it stays
      // small. Written only on request (BUTIK_UPDATE_DOC_IMAGES=1), so an ordinary run leaves the repository alone.
      if (process.env.BUTIK_UPDATE_DOC_IMAGES === '1') {
        await page.screenshot({ path: join(import.meta.dirname, '..', '..', 'docs', 'images', 'admin-activity.png') });
      }
      await entry.getByRole('link', { name: /Revert/ }).click();
      await page.getByRole('button', { name: 'Revert the change' }).click();
      await page.waitForURL(/done=reverted/);
      expect(await page.getByRole('status').textContent()).toContain('The change was reverted.');
      expect((await app().call('products.get', { slug: 'aviator-classic' })).body.result.priceDkk).toBe(129900);
      expect(await page.locator('article.entry').first().textContent()).toContain('audit.revert');
    } finally {
      await page.close();
    }
  });

  it('moves an order to shipped with a carrier and a tracking number', async () => {
    // Shipped to a country, so the order page and packing slip the axe test below draws show where it goes.
    const { orderId, status } = await placeOrder(app(), { checkout: { shipping: { ...shipping, country: 'DK' } } });
    if (status !== 'paid') await app().call('orders.update_status', { orderId, status: 'paid' }, master);
    const page = await signedInAs('olga@shop.dk');
    try {
      await page.goto(`${shop.origin()}/admin/orders/${orderId}`);
      const shipped = page.locator('form', { has: page.getByRole('button', { name: 'Mark as shipped' }) });
      await shipped.getByLabel('Carrier').fill('PostNord');
      await shipped.getByLabel('Tracking number').fill('00370712345678901234');
      await shipped.getByRole('button', { name: 'Mark as shipped' }).click();
      await page.waitForURL(/done=1/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Shipped');
      const order = (await app().call('orders.get', { orderId }, { key: await app().keyWith('orders:read') })).body.result;
      expect(order).toMatchObject({ status: 'shipped', carrier: 'PostNord', trackingNumber: '00370712345678901234' });
    } finally {
      await page.close();
    }
  });

  it('creates a key that works over REST until it is revoked', async () => {
    const page = await signedInAs('olga@shop.dk');
    try {
      await page.goto(`${shop.origin()}/admin/keys`);
      await page.getByLabel('Name').fill('browser agent');
      await page.getByLabel('orders:read').check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = await page.getByLabel('API key').inputValue();
      expect(secret).toMatch(/^bk_/);
      expect((await app().call('orders.list', {}, { key: secret })).status).toBe(200);
      await page.getByRole('link', { name: 'Revoke browser agent' }).click();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Revoke this API key?');
      await page.getByRole('button', { name: 'Revoke' }).click();
      expect(await page.getByRole('status').textContent()).toContain('The key was revoked.');
      await expect.poll(async () => (await app().call('orders.list', {}, { key: secret })).status, { timeout: 10_000 }).toBe(401);
    } finally {
      await page.close();
    }
  });

  it('refuses a form posted without its CSRF token', async () => {
    const page = await signedInAs('olga@shop.dk');
    try {
      const response = await page.request.post(`${shop.origin()}/admin/products/aviator-classic/delete`, { form: { confirm: 'yes' } });
      expect(response.status()).toBe(403);
      expect((await app().call('products.get', { slug: 'aviator-classic' })).status).toBe(200);
    } finally {
      await page.close();
    }
  });

  it('shows a viewer no write buttons and refuses a forged write by the scope check', async () => {
    const page = await signedInAs('vera@shop.dk');
    try {
      await page.goto(`${shop.origin()}/admin/products/aviator-classic`);
      expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
      await page.goto(`${shop.origin()}/admin/activity`);
      expect(await page.getByRole('link', { name: /Revert/ }).count()).toBe(0);
      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const forged = await page.request.post(`${shop.origin()}/admin/products/aviator-classic/delete`, { form: { _csrf: csrf } });
      expect(forged.status()).toBe(403);
      expect(await forged.text()).toContain('products.delete needs scope products:write');
    } finally {
      await page.close();
    }
  });

  it('passes axe on every page at 1440 and 375 px, without horizontal scrolling, and saves screenshots', async () => {
    const orderId = (await app().call('orders.list', { limit: 1 }, { key: await app().keyWith('orders:read') })).body.result[0]?.id;
    const paths = ['/admin/login', '/admin/overview', '/admin/activity', '/admin/orders', `/admin/orders/${orderId}`, `/admin/orders/${orderId}/slip`, '/admin/customers', '/admin/customers/karen%40example.dk', '/admin/products',
      '/admin/products/aviator-classic', '/admin/products/new', '/admin/products/aviator-classic/delete', '/admin/categories',
      '/admin/categories?edit=solbriller', '/admin/categories/solbriller/delete', '/admin/keys', '/admin/settings/search-words'];
    for (const viewport of WIDTHS) {
      const page = await signedInAs('olga@shop.dk', viewport);
      try {
        for (const path of paths) {
          if (path === '/admin/login') {
            const anonymous = await (await shop.browser().newContext({ viewport }))?.newPage();
            if (!anonymous) throw new Error('no page');
            await anonymous.goto(`${shop.origin()}${path}`);
            await expectAccessible(anonymous, path);
            await screenshot(anonymous, `admin-login-${viewport.width}`);
            await anonymous.close();
            continue;
          }
          const response = await page.goto(`${shop.origin()}${path}`);
          expect(response?.status(), path).toBe(200);
          await expectAccessible(page, `${path} at ${viewport.width}`);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${path} at ${viewport.width}`).toBeLessThanOrEqual(0);
          await screenshot(page, `admin${path.replaceAll('/', '-').replace('-admin', '').replace('?edit=', '-edit-').replace(/-[0-9a-f]{8}-[0-9a-f-]+/, '-order').replace('%40', '-at-')}-${viewport.width}`);

        }
      } finally {
        await page.close();
      }
    }
  }, 120_000);
});
