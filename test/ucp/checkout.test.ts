import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { ADDRESS, AGENT, flowerShop, readySession, SUCCESS_CARD, ucp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await flowerShop(); });
afterAll(async () => { await t?.close(); });

describe('UCP checkout: create → update → complete', () => {
  it('creates an incomplete session priced from the catalog, whatever title and price the platform sent', async () => {
    const created = await ucp(t, 'POST', '/checkout-sessions', {
      line_items: [{ id: 'li_1', item: { id: 'bouquet_roses', title: 'Cheap roses', price: 1 }, quantity: 2 }],
      currency: 'USD',
      payment: { instruments: [] },
      buyer: { email: 'jane@example.com', full_name: 'Jane Doe' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      ucp: { version: '2026-01-11', capabilities: expect.arrayContaining([{ name: 'dev.ucp.shopping.checkout', version: '2026-01-11' }]) },
      status: 'incomplete',
      currency: 'USD',
      line_items: [{
        id: 'li_1',
        item: { id: 'bouquet_roses', title: 'Bouquet of Red Roses', price: 3500, image_url: 'https://example.com/roses.jpg' },
        quantity: 2,
        totals: [{ type: 'subtotal', amount: 7000 }, { type: 'total', amount: 7000 }],
      }],
      buyer: { email: 'jane@example.com', full_name: 'Jane Doe' },
      totals: [{ type: 'subtotal', amount: 7000 }, { type: 'total', amount: 7000 }],
      messages: [{ type: 'error', code: 'missing', path: '$.fulfillment', content: 'Fulfillment address is required', severity: 'recoverable' }],
      links: [],
      payment: { handlers: [{ id: 'mock_payment_handler', name: 'dev.ucp.mock_payment' }], instruments: [] },
    });
    expect(created.body.payment.handlers[0]).not.toHaveProperty('processor');
    expect(created.body).not.toHaveProperty('fulfillment');
    expect(Date.parse(created.body.expires_at) - Date.now()).toBeGreaterThan(5.9 * 3600_000);

    const read = await ucp(t, 'GET', `/checkout-sessions/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('offers the rates for the destination country once it is selected, then is ready when an option is chosen', async () => {
    const created = await ucp(t, 'POST', '/checkout-sessions', {
      line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }], currency: 'usd', payment: {},
    });
    const id = created.body.id;
    const addressed = await ucp(t, 'PUT', `/checkout-sessions/${id}`, {
      id,
      fulfillment: { methods: [{ type: 'shipping', destinations: [ADDRESS] }] },
    });
    expect(addressed.status).toBe(200);
    const method = addressed.body.fulfillment.methods[0];
    expect(method).toMatchObject({ type: 'shipping', line_item_ids: [created.body.line_items[0].id], destinations: [{ ...ADDRESS, id: expect.any(String) }] });
    expect(addressed.body.messages).toEqual([expect.objectContaining({ code: 'missing', path: '$.fulfillment.methods[0].selected_destination_id' })]);

    const selected = await ucp(t, 'PUT', `/checkout-sessions/${id}`, {
      fulfillment: { methods: [{ selected_destination_id: method.destinations[0].id }] },
    });
    const group = selected.body.fulfillment.methods[0].groups[0];
    expect(selected.body.fulfillment.methods[0].destinations).toEqual(method.destinations);
    expect(group.options).toEqual([
      { id: 'std-ship', title: 'Standard Shipping', totals: [{ type: 'subtotal', amount: 500 }, { type: 'total', amount: 500 }] },
      { id: 'exp-ship-us', title: 'Express Shipping (US)', totals: [{ type: 'subtotal', amount: 1500 }, { type: 'total', amount: 1500 }] },
    ]);
    expect(selected.body.messages).toEqual([expect.objectContaining({ content: 'Please select a fulfillment option' })]);

    const ready = await ucp(t, 'PUT', `/checkout-sessions/${id}`, {
      fulfillment: { methods: [{ groups: [{ id: group.id, selected_option_id: 'exp-ship-us' }] }] },
    });
    expect(ready.body.status).toBe('ready_for_complete');
    expect(ready.body).not.toHaveProperty('messages');
    expect(ready.body.totals).toEqual([
      { type: 'subtotal', amount: 1500 }, { type: 'fulfillment', amount: 1500 }, { type: 'total', amount: 3000 },
    ]);
  });

  it('takes one code per order by default: a further usable code is refused with a warning, not an error', async () => {
    const session = await readySession(t, [{ id: 'orchid_white', quantity: 1 }], { discounts: { codes: ['NOPE', 'welcome20', 'FIXED500'] } });
    expect(session.discounts).toEqual({
      codes: ['NOPE', 'welcome20', 'FIXED500'],
      applied: [{ code: 'WELCOME20', title: '20% Off', amount: 900, priority: 1 }],
    });
    expect(session.messages).toEqual([
      { type: 'warning', code: 'discount_code_invalid', path: '$.discounts.codes[0]', content: "Code 'NOPE' is not a valid discount code" },
      {
        type: 'warning', code: 'discount_code_combination_disallowed', path: '$.discounts.codes[2]',
        content: "Code 'FIXED500' cannot be combined with 'WELCOME20'; this shop takes one discount code per order",
      },
    ]);
    expect(session.status).toBe('ready_for_complete');
    expect(session.totals).toEqual([
      { type: 'subtotal', amount: 4500 }, { type: 'discount', amount: 900 }, { type: 'fulfillment', amount: 500 }, { type: 'total', amount: 4100 },
    ]);
  });

  it('with stackDiscountCodes on, applies codes in the order sent, each on what the ones before left, and warns about the unusable', async () => {
    expect((await t.call('settings.update', { stackDiscountCodes: true }, master)).status).toBe(200);
    const session = await readySession(t, [{ id: 'orchid_white', quantity: 1 }], { discounts: { codes: ['welcome20', 'FIXED500', 'NOPE', 'WELCOME20'] } });
    expect(session.discounts).toEqual({
      codes: ['welcome20', 'FIXED500', 'NOPE', 'WELCOME20'],
      applied: [
        { code: 'WELCOME20', title: '20% Off', amount: 900, priority: 1 },
        { code: 'FIXED500', title: '$5.00 Off', amount: 500, priority: 2 },
      ],
    });
    expect(session.messages).toEqual([
      { type: 'warning', code: 'discount_code_invalid', path: '$.discounts.codes[2]', content: "Code 'NOPE' is not a valid discount code" },
      { type: 'warning', code: 'discount_code_already_applied', path: '$.discounts.codes[3]', content: "Code 'WELCOME20' is already applied" },
    ]);
    expect(session.status).toBe('ready_for_complete');
    expect(session.totals).toEqual([
      { type: 'subtotal', amount: 4500 }, { type: 'discount', amount: 1400 }, { type: 'fulfillment', amount: 500 }, { type: 'total', amount: 3600 },
    ]);

    const cleared = await ucp(t, 'PUT', `/checkout-sessions/${session.id}`, { discounts: { codes: [] } });
    expect(cleared.body.discounts).toEqual({ codes: [] });
    expect(cleared.body.totals.at(-1)).toEqual({ type: 'total', amount: 5000 });
    expect((await t.call('settings.update', { stackDiscountCodes: false }, master)).status).toBe(200);
  });

  it('ships free under a promotion: an eligible item, or a subtotal after discounts at the minimum', async () => {
    const roses = await readySession(t, [{ id: 'bouquet_roses', quantity: 1 }]);
    expect(roses.fulfillment.methods[0].groups[0].options[0]).toEqual({
      id: 'std-ship', title: 'Standard Shipping (Free)', totals: [{ type: 'subtotal', amount: 0 }, { type: 'total', amount: 0 }],
    });
    const big = await readySession(t, [{ id: 'orchid_white', quantity: 3 }], { discounts: { codes: ['10OFF'] } });
    expect(big.fulfillment.methods[0].groups[0].options[0].title).toBe('Standard Shipping (Free)');
    const justBelow = await readySession(t, [{ id: 'orchid_white', quantity: 2 }, { id: 'pot_ceramic', quantity: 1 }], { discounts: { codes: ['10OFF'] } });
    expect(justBelow.fulfillment.methods[0].groups[0].options[0].title).toBe('Standard Shipping');
  });

  it('completes with the mock handler: an order paid in the shop currency, the session frozen with it', async () => {
    const session = await readySession(t, [{ id: 'bouquet_tulips', quantity: 2 }], { buyer: { email: 'buyer@example.com', full_name: 'Jane Doe' } });
    const completed = await ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, {
      payment_data: { ...SUCCESS_CARD, billing_address: ADDRESS }, risk_signals: { ip: '127.0.0.1' },
    }, { 'idempotency-key': 'complete-1' });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ status: 'completed', order: { id: expect.any(String), permalink_url: expect.stringMatching(/^http:\/\/butik\.test\/orders\//) } });
    expect(completed.body).not.toHaveProperty('messages');

    const orderId = completed.body.order.id;
    const order = await t.call('orders.get', { orderId }, master);
    expect(order.body.result).toMatchObject({
      status: 'paid', channel: 'ucp', currency: 'USD', email: 'buyer@example.com', totalDkk: 6500, shippingDkk: 500, isAiGenerated: true,
    });

    const ucpOrder = await ucp(t, 'GET', `/orders/${orderId}`);
    expect(ucpOrder.status).toBe(200);
    expect(ucpOrder.body).toMatchObject({
      ucp: { version: '2026-01-11', capabilities: [{ name: 'dev.ucp.shopping.order', version: '2026-01-11' }] },
      id: orderId,
      checkout_id: session.id,
      permalink_url: completed.body.order.permalink_url,
      line_items: [{ item: { id: 'bouquet_tulips', price: 3000 }, quantity: { total: 2, fulfilled: 0 }, status: 'processing' }],
      fulfillment: { expectations: [{ method_type: 'shipping', destination: { ...ADDRESS }, description: 'Standard Shipping' }], events: [] },
      totals: [{ type: 'subtotal', amount: 6000 }, { type: 'fulfillment', amount: 500 }, { type: 'total', amount: 6500 }],
    });

    const again = await ucp(t, 'GET', `/checkout-sessions/${session.id}`);
    expect(again.body).toEqual(completed.body);
    const update = await ucp(t, 'PUT', `/checkout-sessions/${session.id}`, { buyer: { email: 'x@example.com' } });
    expect(update.status).toBe(409);
    expect(update.body).toEqual({
      status: 'requires_escalation',
      messages: [{ type: 'error', code: 'checkout_not_modifiable', content: "Cannot update checkout in state 'completed'", severity: 'recoverable' }],
      code: 'CHECKOUT_NOT_MODIFIABLE',
      detail: "Cannot update checkout in state 'completed'",
    });
  });

  it('cancels with an empty body and refuses a second cancel', async () => {
    const created = await ucp(t, 'POST', '/checkout-sessions', { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }], currency: 'USD', payment: {} });
    const response = await t.app.inject({ method: 'POST', url: `/checkout-sessions/${created.body.id}/cancel`, headers: { 'ucp-agent': AGENT } });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ id: created.body.id, status: 'canceled' });
    const twice = await ucp(t, 'POST', `/checkout-sessions/${created.body.id}/cancel`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe("Cannot cancel checkout in state 'canceled'");
  });
});
