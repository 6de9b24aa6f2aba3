import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { placeOrder, stockOf } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';
import { page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let cookie = '';
beforeAll(async () => {
  t = await createTestApp();
  cookie = await staffCookie(t, 'owner@shop.dk', 'owner');
});
afterAll(async () => t.close());

/** Hidden inputs of a page's form, by name. */
function hidden(body: string): Record<string, string> {
  return Object.fromEntries([...body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1]!, match[2]!]));
}

describe('refunding an order in the console', () => {
  it('asks to confirm "Refund … to <customer> for order <number>?", then refunds and lists the refund in the history', async () => {
    const { orderId, product } = await placeOrder(t, { quantity: 2, checkout: { email: 'karen@example.dk' } });
    await t.call('orders.update_status', { orderId, status: 'paid' }, master);
    const form = await page(t.app, cookie, `/admin/orders/${orderId}`);
    // Prefilled with everything left to refund: 2 × 200 kr + 49 kr shipping.
    expect(form.response.body).toContain('<input id="field-amount" name="amount" type="text" inputmode="decimal" value="449.00" required>');
    expect(form.response.body).toContain('Put the items back in stock');

    const confirm = await post(t.app, form.cookie, `/admin/orders/${orderId}/refund/confirm`, {
      _csrf: form.csrf ?? '', amount: '1.24,00', reason: '',
    });
    expect(confirm.statusCode).toBe(422);
    expect(confirm.body).toContain('&quot;1.24,00&quot; is not an amount.');

    const asked = await post(t.app, form.cookie, `/admin/orders/${orderId}/refund/confirm`, {
      _csrf: form.csrf ?? '', amount: '124,50', restock: 'on', reason: 'Skår i glasset',
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain(`Refund DKK\u00a0124.50 to Karen Blixen &lt;karen@example.dk&gt; for order ${orderId.slice(0, 8)}?`);
    expect(await stockOf(t, product.slug)).toBe(48);
    expect((await t.call('orders.get', { orderId }, master)).body.result.refunds).toEqual([]);

    const fields = hidden(asked.body);
    expect(fields).toMatchObject({ amount: '12450', restock: 'on', reason: 'Skår i glasset' });
    const done = await post(t.app, form.cookie, `/admin/orders/${orderId}/refund`, { ...fields, _csrf: form.csrf ?? '' });
    expect(done.statusCode).toBe(303);
    expect(await stockOf(t, product.slug)).toBe(50);

    const after = await page(t.app, cookie, `/admin/orders/${orderId}`);
    expect(after.response.body).toContain('title="partial_refund"');
    expect(after.response.body).toMatch(/<li>[^<]+ · owner@shop\.dk \(owner\) · Refund DKK\u00a0124\.50 · Skår i glasset · items back in stock<\/li>/);
    expect(after.response.body).toContain('value="324.50"');
    // The same confirmation sent twice refunds once.
    await post(t.app, form.cookie, `/admin/orders/${orderId}/refund`, { ...fields, _csrf: form.csrf ?? '' });
    expect((await t.call('orders.get', { orderId }, master)).body.result.refunds).toHaveLength(1);
  });

  it('shows the refusal when the amount is more than is left', async () => {
    const { orderId } = await placeOrder(t);
    await t.call('orders.update_status', { orderId, status: 'paid' }, master);
    const form = await page(t.app, cookie, `/admin/orders/${orderId}`);
    const refused = await post(t.app, form.cookie, `/admin/orders/${orderId}/refund`, { _csrf: form.csrf ?? '', _idem: crypto.randomUUID(), amount: '999999' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('left to refund');
  });
});
