import { describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { addPerson } from '../admin/helpers.ts';
import { MISSING, WIDTHS, expectAccessible, expectNoHorizontalScroll, screenshot } from './chromium.ts';
import { consoleInBrowser } from './console.ts';

let agentKey = '';
const shop = consoleInBrowser(async (t, origin) => {
  await seedDemoStore(t.database.db, { baseUrl: origin });
  await addPerson(t.database.db, 'anna@shop.dk', 'manager');
  agentKey = await t.keyWith('products:write');
});

describe.skipIf(MISSING)('the product conflict form in a browser', () => {
  for (const viewport of WIDTHS) {
    it(`shows the agent's price beside the person's after a save over the agent's change (${viewport.width} px)`, async () => {
      const t = shop.app();
      const slug = 'aviator-classic';
      const before = (await t.call('products.get', { slug }, { key: agentKey })).body.result;
      const page = await shop.signedIn('anna@shop.dk', viewport);
      try {
        await page.goto(`${shop.origin()}/admin/products/${slug}`);
        // Meanwhile an agent cuts the price through the REST tool.
        const agentPrice = before.priceDkk - 10000;
        expect((await t.call('products.update', { slug, patch: { priceDkk: agentPrice } }, { key: agentKey })).status).toBe(200);
        await page.getByLabel('Stock change').fill('12');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByRole('heading', { name: 'Someone else changed this while you were editing it' }).waitFor();
        const price = page.getByLabel(/^Price/);
        expect(await price.inputValue()).toBe(String(before.priceDkk));
        expect(await page.locator('#field-priceDkk-note').textContent()).toBe(`Saved now: ${agentPrice}`);
        expect(await price.getAttribute('aria-describedby')).toBe('field-priceDkk-note');
        expect(await page.getByRole('alert').getByRole('link', { name: /^Price/ }).count()).toBe(1);
        expect((await t.call('products.get', { slug }, { key: agentKey })).body.result).toMatchObject({ priceDkk: agentPrice, stock: before.stock });
        await expectAccessible(page, `product conflict ${viewport.width}`);
        await expectNoHorizontalScroll(page, `product conflict ${viewport.width}`);
        await screenshot(page, `product-conflict-${viewport.width}`);
      } finally {
        await page.context().close();
      }
    }, 60_000);
  }
});
