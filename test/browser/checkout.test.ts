import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { MISSING, WIDTHS, expectUsable, screenshot } from './chromium.ts';
import { appInBrowser } from './in-browser.ts';

const [DESKTOP, PHONE] = WIDTHS;
const AGENT = { 'ucp-agent': 'profile="https://platform.example/profile"', 'content-type': 'application/json' };

const shop = appInBrowser({
  app: { env: { BUTIK_UCP_MODE: 'test' } }, baseUrl: 'origin', setUp: (t, origin) => seedDemoStore(t.database.db, { baseUrl: origin }),
});

async function newPage(viewport: { width: number; height: number }): Promise<Page> {
  return shop.newPage(viewport, 'da-DK');
}

async function fillBuyer(page: Page): Promise<void> {
  await page.getByLabel('E-mail').fill('karen@example.dk');
  await page.getByLabel('Navn').fill('Karen Blixen');
  await page.getByLabel('Adresse').fill('Rungstedvej 111');
  await page.getByLabel('Postnummer').fill('2960');
  await page.getByLabel('By').fill('Rungsted Kyst');
  await page.getByLabel('Land (landekode)').fill('DK');
}

describe.skipIf(MISSING)('the buyer page in a browser', () => {
  it('takes over an agent\'s session from continue_url, pays with the mock handler and shows the order UCP then serves', async () => {
    const created = await fetch(`${shop.origin()}/checkout-sessions`, {
      method: 'POST', headers: AGENT, body: JSON.stringify({ line_items: [{ item: { id: 'aviator-classic' }, quantity: 1 }], currency: 'DKK' }),
    });
    expect(created.status).toBe(201);
    const session = await created.json() as { id: string; continue_url: string };
    expect(session.continue_url).toBe(`${shop.origin()}/checkout/${session.id}`);

    const page = await newPage(DESKTOP);
    try {
      expect((await page.goto(session.continue_url))?.status()).toBe(200);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Kassen');
      await expectUsable(page, 'checkout at 1440');
      await screenshot(page, 'checkout-1440');
      await fillBuyer(page);
      await page.getByRole('button', { name: 'Opdatér pris og levering' }).click();
      await page.waitForURL(session.continue_url);
      await page.getByRole('radio').first().check();
      await page.getByLabel('Kortnummer').fill('4242 4242 4242 4242');
      await page.getByLabel('Kortnummer').focus();
      expect(await page.getByLabel('Kortnummer').evaluate((input) => getComputedStyle(input).outlineStyle)).not.toBe('none');
      await screenshot(page, 'checkout-filled-1440');
      await page.getByRole('button', { name: /^Betal / }).click();
      await page.waitForURL(session.continue_url);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Tak for din bestilling');
      await expectUsable(page, 'confirmation at 1440');
      await screenshot(page, 'checkout-confirmation-1440');
      const orderId = await page.locator('.order-number').textContent();
      const order = await fetch(`${shop.origin()}/orders/${orderId}`, { headers: AGENT });
      expect(order.status).toBe(200);
      expect(await order.json()).toMatchObject({ id: orderId, checkout_id: session.id });
    } finally {
      await page.close();
    }
  }, 60_000);

  it('buys from a product page on a phone: Buy, a declined card shown beside its field, then the order', async () => {
    const page = await newPage(PHONE);
    try {
      expect((await page.goto(`${shop.origin()}/products/aviator-classic`))?.status()).toBe(200);
      await expectUsable(page, 'product with Buy at 375');
      await screenshot(page, 'product-buy-375');
      await page.getByLabel('Antal').fill('2');
      await page.getByRole('button', { name: 'Køb' }).click();
      await page.waitForURL(/\/checkout\/[0-9a-f-]{36}$/);
      const checkoutUrl = page.url();
      expect(await page.locator('.checkout-lines tbody td').nth(1).textContent()).toBe('2');
      await expectUsable(page, 'checkout at 375');
      await screenshot(page, 'checkout-375');

      await fillBuyer(page);
      await page.getByLabel('Kortnummer').fill('4242 4242 4242 4241');
      await page.getByRole('button', { name: /^Betal / }).click();
      // No option chosen yet: the page says so beside the options, now that the address names a country.
      expect(await page.locator('#felt-option-problem').textContent()).toContain('Vælg hvordan varerne skal sendes.');
      await page.getByRole('radio').first().check();
      await page.getByLabel('Kortnummer').fill('4242 4242 4242 4241');
      await page.getByRole('button', { name: /^Betal / }).click();
      expect(await page.locator('#felt-card-problem').textContent()).toContain('Betalingen blev afvist.');
      expect(await page.getByLabel('E-mail').inputValue()).toBe('karen@example.dk');
      await expectUsable(page, 'declined payment at 375');
      await screenshot(page, 'checkout-declined-375');

      await page.getByLabel('Kortnummer').fill('4242 4242 4242 4242');
      await page.getByRole('button', { name: /^Betal / }).click();
      await page.waitForURL(checkoutUrl);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Tak for din bestilling');
      await expectUsable(page, 'confirmation at 375');
      await screenshot(page, 'checkout-confirmation-375');
      const orderId = await page.locator('.order-number').textContent();
      expect((await fetch(`${shop.origin()}/orders/${orderId}`, { headers: AGENT })).status).toBe(200);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('refuses a form posted without the page\'s CSRF token', async () => {
    const forged = await fetch(`${shop.origin()}/checkout`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'product=aviator-classic&quantity=1', redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('Formularen er udløbet');
  });
});
