import { describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { master } from '../helpers/fixtures.ts';
import { addPerson } from '../admin/helpers.ts';
import { MISSING, WIDTHS, expectAccessible, expectNoHorizontalScroll, screenshot } from './chromium.ts';
import { consoleInBrowser } from './in-browser.ts';

const shop = consoleInBrowser(async (t, origin) => {
  await seedDemoStore(t.database.db, { baseUrl: origin });
  await addPerson(t.database.db, 'olga@shop.dk', 'owner');
});

describe.skipIf(MISSING)('amounts in kroner and confirmation pages in a browser', () => {
  it('edits a price typed in kroner, warns about a cut over half, and saves after "Save anyway"', async () => {
    const page = await shop.signedIn('olga@shop.dk');
    try {
      await page.goto(`${shop.origin()}/admin/products/aviator-classic`);
      const price = page.getByLabel('Price (DKK, VAT incl.)');
      expect(await price.inputValue()).toBe('1299.00');
      await price.fill('1.249,50');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/done=saved/);
      expect((await shop.app().call('products.get', { slug: 'aviator-classic' }, master)).body.result.priceDkk).toBe(124950);
      await page.getByLabel('Price (DKK, VAT incl.)').fill('12,49');
      await page.getByRole('button', { name: 'Save' }).click();
      expect(await page.getByRole('alert').textContent()).toContain('Nothing was saved yet.');
      expect((await shop.app().call('products.get', { slug: 'aviator-classic' }, master)).body.result.priceDkk).toBe(124950);
      await page.getByRole('button', { name: 'Save anyway' }).click();
      await page.waitForURL(/done=saved/);
      expect((await shop.app().call('products.get', { slug: 'aviator-classic' }, master)).body.result.priceDkk).toBe(1249);
    } finally {
      await page.close();
    }
  });

  for (const viewport of WIDTHS) {
    it(`shows a product form in kroner, its warning, and a confirmation page, accessible at ${viewport.width} px`, async () => {
      const page = await shop.signedIn('olga@shop.dk', viewport);
      try {
        await page.goto(`${shop.origin()}/admin/products/new`);
        await page.getByLabel('Slug', { exact: true }).fill(`slip-${viewport.width}`);
        await page.getByLabel('Name', { exact: true }).fill('Øre slip');
        await page.getByLabel('Price (DKK, VAT incl.)').fill('0,50');
        await page.getByLabel('Stock', { exact: true }).fill('2');
        await page.getByLabel('Category').selectOption('solbriller');
        await page.getByLabel('Description', { exact: true }).fill('Typed as øre.');
        await page.getByRole('button', { name: 'Save' }).click();
        expect(await page.getByRole('alert').textContent()).toContain('less than one krone');
        await screenshot(page, `admin-money-warning-${viewport.width}`);
        await expectAccessible(page, `admin-money-warning-${viewport.width}`);
        await expectNoHorizontalScroll(page, `admin-money-warning-${viewport.width}`);

        await page.goto(`${shop.origin()}/admin/settings/features/checkout/off`);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Switch off this feature?');
        await screenshot(page, `admin-confirm-${viewport.width}`);
        await expectAccessible(page, `admin-confirm-${viewport.width}`);
        await expectNoHorizontalScroll(page, `admin-confirm-${viewport.width}`);
      } finally {
        await page.close();
      }
    });
  }
});
