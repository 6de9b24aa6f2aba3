import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { MASTER_KEY } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { flowerShop, SUCCESS_CARD, ucp } from './helpers.ts';

let t: TestApp;
let buyer: string;
let other: string;
beforeAll(async () => {
  t = await flowerShop({ env: { BUTIK_UCP_AUTH: 'key' } });
  buyer = await t.keyWith('ucp:checkout');
  other = await t.keyWith('ucp:checkout');
});
afterAll(async () => { await t?.close(); });

const pot = {
  line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }], currency: 'USD',
  fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'h', street_address: '1 Elm St', address_locality: 'Boston', postal_code: '02101', address_country: 'US' }], selected_destination_id: 'h', groups: [{ selected_option_id: 'std-ship' }] }] },
};

describe('BUTIK_UCP_AUTH=key', () => {
  it('refuses a request without a key (401), with an unknown key (401) or a key without ucp:checkout (403)', async () => {
    const none = await ucp(t, 'POST', '/checkout-sessions', pot);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'UNAUTHORIZED', detail: expect.stringMatching(/scope ucp:checkout: send X-API-Key or Authorization: Bearer/) });
    expect((await ucp(t, 'POST', '/checkout-sessions', pot, { 'x-api-key': 'bk_nope' })).status).toBe(401);
    const catalogOnly = await t.keyWith('catalog:read');
    const forbidden = await ucp(t, 'POST', '/checkout-sessions', pot, { authorization: `Bearer ${catalogOnly}` });
    expect(forbidden).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
  });

  it("keeps a session to the key that made it; the order names the key and is readable by it or with orders:read", async () => {
    const created = await ucp(t, 'POST', '/checkout-sessions', pot, { 'x-api-key': buyer });
    expect(created.status).toBe(201);
    expect((await ucp(t, 'GET', `/checkout-sessions/${created.body.id}`, undefined, { 'x-api-key': other })).status).toBe(404);
    expect((await ucp(t, 'GET', `/checkout-sessions/${created.body.id}`, undefined, { authorization: `Bearer ${buyer}` })).status).toBe(200);
    const completed = await ucp(t, 'POST', `/checkout-sessions/${created.body.id}/complete`, { payment_data: SUCCESS_CARD }, { 'x-api-key': buyer });
    expect(completed.status).toBe(200);
    const orderId = completed.body.order.id;
    const order = await t.call('orders.get', { orderId }, master);
    expect(order.body.result.aiAgentSource).toBe('test ucp:checkout');

    expect((await ucp(t, 'GET', `/orders/${orderId}`, undefined, { 'x-api-key': buyer })).status).toBe(200);
    expect((await ucp(t, 'GET', `/orders/${orderId}`, undefined, { 'x-api-key': other })).status).toBe(404);
    const reader = await t.keyWith('ucp:checkout', 'orders:read');
    expect((await ucp(t, 'GET', `/orders/${orderId}`, undefined, { 'x-api-key': reader })).status).toBe(200);
    expect((await ucp(t, 'PUT', `/orders/${orderId}`, {}, { 'x-api-key': reader })).status).toBe(404);
    expect((await ucp(t, 'GET', `/orders/${orderId}`, undefined, { 'x-api-key': MASTER_KEY })).status).toBe(200);
  });

  it('lists ucp:checkout among the supported scopes and secures the UCP operations with it', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body);
    expect(doc['x-service-supported-scopes'].at(-1)).toBe('ucp:checkout');
    expect(doc.paths['/checkout-sessions'].post.security).toEqual([{ bearerAuth: ['ucp:checkout'] }]);
  });

  it('keeps a cart to the key that made it, and its checkout with it; without a key a cart is 401', async () => {
    const cart = { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }] };
    const none = await ucp(t, 'POST', '/carts', cart);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ ucp: { status: 'error' }, messages: [{ code: 'unauthorized' }] });
    const created = await ucp(t, 'POST', '/carts', cart, { 'x-api-key': buyer });
    expect(created.status).toBe(201);
    const foreign = await ucp(t, 'GET', `/carts/${created.body.id}`, undefined, { 'x-api-key': other });
    expect(foreign).toMatchObject({ status: 200, body: { ucp: { status: 'error' }, messages: [{ code: 'not_found' }] } });
    expect((await ucp(t, 'POST', '/checkout-sessions', { cart_id: created.body.id }, { 'x-api-key': other })).status).toBe(404);
    const session = await ucp(t, 'POST', '/checkout-sessions', { cart_id: created.body.id }, { 'x-api-key': buyer });
    expect(session.status).toBe(201);
    expect((await ucp(t, 'GET', `/checkout-sessions/${session.body.id}`, undefined, { 'x-api-key': other })).status).toBe(404);
  });
});

describe('BUTIK_UCP_AUTH=key under the preauth rate limit', () => {
  let limited: TestApp;
  beforeAll(async () => { limited = await flowerShop({ env: { BUTIK_UCP_AUTH: 'key', BUTIK_RATE_LIMITS: 'anon:1000,preauth:3,key:1000,ucp:1000' } }); });
  afterAll(async () => { await limited?.close(); });

  it('counts every key guess per IP before looking it up, so past the preauth limit even a wrong key gets 429', async () => {
    const valid = await limited.keyWith('ucp:checkout');
    // A key that proves valid gives its point back: five good calls leave the allowance whole.
    for (let call = 0; call < 5; call += 1) expect((await ucp(limited, 'POST', '/checkout-sessions', pot, { 'x-api-key': valid })).status).toBe(201);
    for (let guess = 0; guess < 3; guess += 1) expect((await ucp(limited, 'GET', '/orders/x', undefined, { 'x-api-key': `bk_guess${guess}` })).status).toBe(401);
    const refused = await ucp(limited, 'GET', '/orders/x', undefined, { 'x-api-key': 'bk_guess3' });
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', detail: expect.stringMatching(/unknown keys; retry in \d+ seconds/) } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const overMcp = await limited.app.inject({
      method: 'POST', url: '/ucp/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': 'bk_guess4' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(overMcp.statusCode).toBe(429);
    expect(JSON.parse(overMcp.body)).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
