import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createKey } from '../../src/access/api-keys.ts';
import { products } from '../../src/db/schema.ts';
import { MASTER_KEY } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';
import { uniqueCode } from '../helpers/commerce.ts';
import { addPerson } from '../admin/helpers.ts';
import { MISSING, WIDTHS, expectAccessible, expectNoHorizontalScroll, screenshot } from './chromium.ts';
import { consoleInBrowser } from './in-browser.ts';

let agent = '';

const shop = consoleInBrowser(async (t) => {
  await addPerson(t.database.db, 'olga@shop.dk', 'owner');
  agent = (await createKey(t.database.db, { name: 'pricing-bot', scopes: ['products:write', 'discounts:write'] }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() })).key;
  const set = await t.app.inject({
    method: 'POST', url: '/api/v1/commands/policies.set', headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    payload: { document: { rules: [{ kind: 'price_drop', percentOver: 20 }, { kind: 'discount_over', percentOver: 30 }] } },
  });
  if (set.statusCode !== 200) throw new Error(set.body);
});
const app = shop.app;

async function heldPriceCut(priceDkk = 100000) {
  const product = await createProduct(app(), { priceDkk, name: 'Aviator Classic' });
  const held = await app().call('products.update', { slug: product.slug, patch: { priceDkk: 10000 } }, { key: agent });
  expect(held.status).toBe(202);
  return { product, id: held.body.approval.id as string };
}

async function priceOf(slug: string): Promise<number> {
  const [row] = await app().database.db.select({ price: products.priceDkk }).from(products).where(eq(products.slug, slug));
  return row!.price;
}

describe.skipIf(MISSING)('approvals in the console', () => {
  it('shows the waiting calls with a badge, and approving one runs it as the agent', async () => {
    const { product, id } = await heldPriceCut();
    const page = await shop.signedIn('olga@shop.dk');
    try {
      await page.goto(`${shop.origin()}/admin/approvals`);
      expect(await page.locator('nav .badge').textContent()).toMatch(/^\d+/);
      const entry = page.locator(`section[aria-labelledby="ap-${id}"]`);
      expect(await entry.textContent()).toContain('pricing-bot');
      expect(await entry.textContent()).toContain('a price cut of more than 20 %');
      expect(await entry.locator('table').textContent()).toMatch(/priceDkk\s*100000\s*10000/);
      await entry.getByRole('button', { name: /^Approve/ }).click();
      await page.waitForURL(/done=approved/);
      expect(await page.getByRole('status').textContent()).toContain('Approved');
      expect(await priceOf(product.slug)).toBe(10000);
      const polled = await app().call('approvals.get', { id }, { key: agent });
      expect(polled.body.result).toMatchObject({ status: 'approved', decidedBy: 'olga@shop.dk (owner)' });
    } finally {
      await page.close();
    }
  });

  it('denies with a note, and shows why an approval fails when the product changed since', async () => {
    const denied = await heldPriceCut();
    const changed = await heldPriceCut();
    expect((await app().call('products.update', { slug: changed.product.slug, patch: { priceDkk: 95000 } }, master)).status).toBe(200);
    const page = await shop.signedIn('olga@shop.dk');
    try {
      await page.goto(`${shop.origin()}/admin/approvals/${denied.id}`);
      await page.getByLabel('Note for the agent (optional)').fill('Too steep.');
      await page.getByRole('button', { name: /^Deny/ }).click();
      await page.waitForURL(/done=denied/);
      expect((await app().call('approvals.get', { id: denied.id }, { key: agent })).body.result).toMatchObject({ status: 'denied', note: 'Too steep.' });

      await page.goto(`${shop.origin()}/admin/approvals/${changed.id}`);
      await page.getByRole('button', { name: /^Approve/ }).click();
      expect(await page.getByRole('alert').textContent()).toContain('changed since it was held');
      expect(await priceOf(changed.product.slug)).toBe(95000);
    } finally {
      await page.close();
    }
  });

  it('passes axe at 1440 and 375 px without horizontal scrolling; screenshots saved', async () => {
    await heldPriceCut();
    expect((await app().call('discounts.create', { code: uniqueCode('HALF'), type: 'percent', value: 50 }, { key: agent })).status).toBe(202);
    for (const viewport of WIDTHS) {
      const page = await shop.signedIn('olga@shop.dk', viewport);
      try {
        const response = await page.goto(`${shop.origin()}/admin/approvals`);
        expect(response?.status()).toBe(200);
        await expectAccessible(page, `/admin/approvals at ${viewport.width}`);
        await expectNoHorizontalScroll(page, `/admin/approvals at ${viewport.width}`);
        await screenshot(page, `admin-approvals-${viewport.width}`);
      } finally {
        await page.close();
      }
    }
  }, 120_000);
});

describe.skipIf(MISSING)('policies in the console', () => {
  it('saves a checked document, and gives a refused one back with what is wrong, changing nothing', async () => {
    const page = await shop.signedIn('olga@shop.dk');
    try {
      await page.goto(`${shop.origin()}/admin/policies`);
      expect(await page.locator('.rules').textContent()).toContain('a price cut of more than 20 %');
      const next = { rules: [{ kind: 'price_drop', percentOver: 20 }, { kind: 'discount_over', percentOver: 30 }, { kind: 'refund', keys: ['pricing-bot'] }] };
      await page.getByLabel('Policy document (JSON)').fill(JSON.stringify(next));
      await page.getByRole('button', { name: 'Save the policy document' }).click();
      await page.waitForURL(/done=saved/);
      expect(await page.locator('.rules').textContent()).toContain('refunding an order needs a person\'s approval (key pricing-bot)');

      await page.getByLabel('Policy document (JSON)').fill('{"rules": [{"kind": "refund", "amount": 5}]}');
      await page.getByRole('button', { name: 'Save the policy document' }).click();
      expect(await page.getByRole('alert').textContent()).toContain('"amount"');
      expect(await page.getByLabel('Policy document (JSON)').inputValue()).toContain('"amount": 5');
      const shown = await app().app.inject({ method: 'POST', url: '/api/v1/commands/policies.show', headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' }, payload: '{}' });
      expect(JSON.parse(shown.body).result).toEqual(next);
    } finally {
      await page.close();
    }
  });

  it('passes axe at 1440 and 375 px without horizontal scrolling; screenshots saved', async () => {
    for (const viewport of WIDTHS) {
      const page = await shop.signedIn('olga@shop.dk', viewport);
      try {
        const response = await page.goto(`${shop.origin()}/admin/policies`);
        expect(response?.status()).toBe(200);
        await expectAccessible(page, `/admin/policies at ${viewport.width}`);
        await expectNoHorizontalScroll(page, `/admin/policies at ${viewport.width}`);
        await screenshot(page, `admin-policies-${viewport.width}`);
      } finally {
        await page.close();
      }
    }
  }, 120_000);
});
