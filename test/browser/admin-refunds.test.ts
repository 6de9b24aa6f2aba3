import { describe, expect, it } from 'vitest';
import { addPerson } from '../admin/helpers.ts';
import { placeOrder } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';
import { MISSING, WIDTHS, expectAccessible, expectNoHorizontalScroll, screenshot } from './chromium.ts';
import { consoleInBrowser } from './in-browser.ts';

let orderId = '';

const shop = consoleInBrowser(async (t) => {
  await addPerson(t.database.db, 'olga@shop.dk', 'owner');
  const order = await placeOrder(t, { quantity: 2, checkout: { email: 'karen@example.dk' } });
  orderId = order.orderId;
  await t.call('orders.update_status', { orderId, status: 'paid' }, master);
});

describe.skipIf(MISSING)('refunding an order in a browser', () => {
  it('refunds part of an order through the confirmation page, without JavaScript, and shows it in the history', async () => {
    const page = await shop.signedIn('olga@shop.dk');
    try {
      await page.goto(`${shop.origin()}/admin/orders/${orderId}`);
      expect(await page.getByLabel('Amount (DKK)').inputValue()).toBe('449.00');
      await page.getByLabel('Amount (DKK)').fill('1.24,00');
      await page.getByRole('button', { name: 'Continue to confirm' }).click();
      expect(await page.locator('.error').first().textContent()).toContain('"1.24,00" is not an amount.');
      await page.getByLabel('Amount (DKK)').fill('124,50');
      await page.getByLabel('Put the items back in stock').check();
      await page.getByLabel('Reason (optional)').fill('Skår i glasset');
      await page.getByRole('button', { name: 'Continue to confirm' }).click();
      expect(await page.locator('main').textContent()).toContain(`Refund DKK\u00a0124.50 to Karen Blixen <karen@example.dk> for order ${orderId.slice(0, 8)}?`);
      await expectAccessible(page, 'refund confirmation');
      await screenshot(page, 'admin-refund-confirm-1440');
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      await page.waitForURL(/done=1/);
      expect(await page.locator('main').textContent()).toContain('Refund DKK\u00a0124.50 · Skår i glasset · items back in stock');
      expect(await page.getByLabel('Amount (DKK)').inputValue()).toBe('324.50');
    } finally {
      await page.close();
    }
  });

  for (const viewport of WIDTHS) {
    it(`shows the order page with a refund accessibly at ${viewport.width} px`, async () => {
      const page = await shop.signedIn('olga@shop.dk', viewport);
      try {
        await page.goto(`${shop.origin()}/admin/orders/${orderId}`);
        expect(await page.locator('main').textContent()).toContain('Refunds');
        await expectAccessible(page, `order page with a refund at ${viewport.width}`);
        await expectNoHorizontalScroll(page, `order page with a refund at ${viewport.width}`);
        await screenshot(page, `admin-order-refund-${viewport.width}`);
      } finally {
        await page.close();
      }
    });
  }
});
