import { describe, expect, it } from 'vitest';
import { addPerson } from '../admin/helpers.ts';
import { master } from '../helpers/fixtures.ts';
import { MISSING, WIDTHS, expectAccessible, expectNoHorizontalScroll, screenshot } from './chromium.ts';
import { consoleInBrowser } from './in-browser.ts';

const shop = consoleInBrowser(async (t) => {
  await addPerson(t.database.db, 'olga@shop.dk', 'owner');
  await t.call('shipping.set_rate', { id: 'any-express', title: 'International express', serviceLevel: 'express', countryCode: 'default', price: 24900 }, master);
  await t.call('shipping.set_promotion', { id: 'free-500', description: 'Fri fragt over 500 kr.', minSubtotal: 50000 }, master);
});

const list = async () => (await shop.app().call('shipping.list', {}, master)).body.result;

describe.skipIf(MISSING)('the shipping page in a browser', () => {
  it('adds a rate, edits it from the list and deletes it after asking', async () => {
    const page = await shop.signedIn('olga@shop.dk');
    try {
      await page.goto(`${shop.origin()}/admin/shipping`);
      await page.getByLabel('Rate id (an existing id changes that rate)').fill('dk-std');
      await page.getByLabel('Title the buyer sees').fill('PostNord, 1-3 days');
      await page.getByLabel('Service level (e.g. standard, express)').fill('standard');
      await page.getByLabel('Country (two letters, e.g. DK, or "default")').fill('DK');
      await page.getByLabel('Price (minor units, VAT incl.)').fill('3900');
      await page.locator('form[action="/admin/shipping/rates"]').getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/done=rateSaved/);
      expect(await page.getByRole('status').textContent()).toContain('The rate was saved.');
      expect(await page.locator('td[data-label="Price"]').first().textContent()).toBe('DKK\u00a039.00');

      await page.getByRole('link', { name: 'Edit dk-std' }).click();
      expect(await page.getByLabel('Price (minor units, VAT incl.)').inputValue()).toBe('3900');
      await page.getByLabel('Price (minor units, VAT incl.)').fill('4500');
      await page.locator('form[action="/admin/shipping/rates"]').getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/done=rateSaved/);
      expect((await list()).rates.find((rate: { id: string }) => rate.id === 'dk-std').price).toBe(4500);

      await page.getByRole('link', { name: 'Delete dk-std' }).click();
      expect(await page.locator('main').textContent()).toContain('PostNord, 1-3 days (dk-std)');
      await expectAccessible(page, 'the confirmation page of a rate\'s deletion');
      await screenshot(page, 'admin-shipping-delete');
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL(/done=rateRemoved/);
      expect((await list()).rates.map((rate: { id: string }) => rate.id)).toEqual(['any-express']);
    } finally {
      await page.close();
    }
  });

  it('passes axe at 1440 and 375 px without horizontal scrolling, and saves screenshots', async () => {
    for (const viewport of WIDTHS) {
      const page = await shop.signedIn('olga@shop.dk', viewport);
      try {
        const response = await page.goto(`${shop.origin()}/admin/shipping`);
        expect(response?.status()).toBe(200);
        await expectAccessible(page, `/admin/shipping at ${viewport.width}`);
        await expectNoHorizontalScroll(page, `/admin/shipping at ${viewport.width}`);
        await screenshot(page, `admin-shipping-${viewport.width}`);
      } finally {
        await page.close();
      }
    }
  }, 120_000);
});
