import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { ADDRESS, flowerShop, readySession, SUCCESS_CARD, ucp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await flowerShop(); });
afterAll(async () => { await t?.close(); });

const roses = (quantity = 1) => ({ line_items: [{ item: { id: 'bouquet_roses' }, quantity }], currency: 'USD', payment: {} });

/** The UCP error structure with the samples' code and detail, detail being the first message's content. */
function expectUcpError(response: { status: number; body: any }, status: number, code: string, detail: string | RegExp) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({
    status: 'requires_escalation',
    messages: [{ type: 'error', code: code.toLowerCase(), content: response.body.detail, severity: expect.any(String) }],
    code,
    detail: expect.stringMatching(typeof detail === 'string' ? new RegExp(`^${detail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : detail),
  });
}

describe('UCP errors', () => {
  it('refuses a request without UCP-Agent, in the declared version 2026-04-08 since it names none', async () => {
    const anonymous = await ucp(t, 'POST', '/checkout-sessions', roses(), { 'ucp-agent': '' });
    expect(anonymous.status).toBe(422);
    expect(anonymous.body).toEqual({ code: 'invalid_request', content: expect.stringMatching(/UCP-Agent header is required/) });
    expect((await ucp(t, 'POST', '/checkout-sessions', roses(), { 'ucp-agent': 'profile="https://p.example/x";version="2026-01-11"' })).status).toBe(201);
  });

  it('names an unknown item, a quantity above stock (however large) and another currency', async () => {
    expectUcpError(await ucp(t, 'POST', '/checkout-sessions', { ...roses(), line_items: [{ item: { id: 'tulip_bulb' }, quantity: 1 }] }),
      400, 'INVALID_REQUEST', 'Product tulip_bulb not found');
    expectUcpError(await ucp(t, 'POST', '/checkout-sessions', roses(1001)), 400, 'INVALID_REQUEST', 'Insufficient stock for item bouquet_roses');
    expectUcpError(await ucp(t, 'POST', '/checkout-sessions', roses(9_000_000_000_000)), 400, 'INVALID_REQUEST', 'Insufficient stock for item bouquet_roses');
    expectUcpError(await ucp(t, 'POST', '/checkout-sessions', { ...roses(), line_items: [{ item: { id: 'gardenias' }, quantity: 1 }] }),
      400, 'INVALID_REQUEST', 'Insufficient stock for item gardenias');
    expectUcpError(await ucp(t, 'POST', '/checkout-sessions', { ...roses(), currency: 'EUR' }),
      400, 'INVALID_REQUEST', 'Currency EUR is not supported; this shop sells in USD.');
  });

  it('answers 422 for a body that breaks the schema and 400 for one that is not JSON', async () => {
    expectUcpError(await ucp(t, 'POST', '/checkout-sessions', { ...roses(), line_items: [{ item: { id: 'bouquet_roses' }, quantity: 0 }] }),
      422, 'INVALID_REQUEST', /^Invalid request: line_items\.0\.quantity: /);
    expectUcpError(await ucp(t, 'POST', '/checkout-sessions', { currency: 'USD' }), 422, 'INVALID_REQUEST', /line_items/);
    expectUcpError(await ucp(t, 'POST', '/checkout-sessions', '{"line_items": ['), 400, 'INVALID_REQUEST', 'The request body is not valid JSON.');
  });

  it('answers 404 for an unknown session or order', async () => {
    expectUcpError(await ucp(t, 'GET', '/checkout-sessions/nope'), 404, 'RESOURCE_NOT_FOUND', 'Checkout session not found');
    expectUcpError(await ucp(t, 'PUT', '/checkout-sessions/nope', {}), 404, 'RESOURCE_NOT_FOUND', 'Checkout session not found');
    expectUcpError(await ucp(t, 'POST', '/checkout-sessions/nope/complete', { payment_data: SUCCESS_CARD }), 404, 'RESOURCE_NOT_FOUND', 'Checkout session not found');
    expectUcpError(await ucp(t, 'GET', '/orders/nope'), 404, 'RESOURCE_NOT_FOUND', 'Order not found');
  });

  it('refuses to complete before a destination and an option are selected', async () => {
    const created = await ucp(t, 'POST', '/checkout-sessions', roses());
    expectUcpError(await ucp(t, 'POST', `/checkout-sessions/${created.body.id}/complete`, { payment_data: SUCCESS_CARD }),
      400, 'INVALID_REQUEST', 'Fulfillment address and option must be selected before completion.');
    await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, { fulfillment: { methods: [{ type: 'shipping', destinations: [ADDRESS] }] } });
    expectUcpError(await ucp(t, 'POST', `/checkout-sessions/${created.body.id}/complete`, { payment_data: SUCCESS_CARD }),
      400, 'INVALID_REQUEST', 'Fulfillment address and option must be selected before completion.');
  });

  it('declines with 402 and leaves the session open; refuses a handler the shop does not advertise', async () => {
    const session = await readySession(t, [{ id: 'pot_ceramic', quantity: 1 }]);
    const declined = await ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, {
      payment_data: { ...SUCCESS_CARD, credential: { type: 'token', token: 'fail_token' } },
    });
    expectUcpError(declined, 402, 'PAYMENT_FAILED', 'Payment Failed: Insufficient Funds');
    expect(declined.body.messages[0].severity).toBe('requires_buyer_input');
    expect((await ucp(t, 'GET', `/checkout-sessions/${session.id}`)).body.status).toBe('ready_for_complete');

    expectUcpError(await ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, { payment_data: { ...SUCCESS_CARD, handler_id: 'google_pay' } }),
      400, 'INVALID_REQUEST', 'Unsupported payment handler: google_pay');
    expectUcpError(await ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, {
      payment_data: { ...SUCCESS_CARD, credential: { type: 'token', token: 'success_token', binding: { checkout_id: 'another' } } },
    }), 402, 'PAYMENT_FAILED', /bound to another checkout/);

    const card = await ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, {
      payment_data: { ...SUCCESS_CARD, credential: { type: 'card', card_number_type: 'fpan', number: '4242424242424242' } },
    });
    expect(card.status).toBe(200);
    expect(card.body.status).toBe('completed');
  });

  it('answers 409 when the stock is gone by completion, with nothing taken', async () => {
    const product = await t.call('products.get', { slug: 'bouquet-sunflowers' }, master);
    expect(product.body.result.stock).toBe(500);
    const session = await readySession(t, [{ id: 'bouquet_sunflowers', quantity: 300 }]);
    const other = await readySession(t, [{ id: 'bouquet_sunflowers', quantity: 300 }]);
    expect((await ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, { payment_data: SUCCESS_CARD })).status).toBe(200);
    expectUcpError(await ucp(t, 'POST', `/checkout-sessions/${other.id}/complete`, { payment_data: SUCCESS_CARD }),
      409, 'OUT_OF_STOCK', 'Item bouquet_sunflowers is out of stock');
    const after = await t.call('products.get', { slug: 'bouquet-sunflowers' }, master);
    expect(after.body.result.stock).toBe(200);
    expect((await ucp(t, 'GET', `/checkout-sessions/${other.id}`)).body).toMatchObject({
      status: 'incomplete',
      messages: [{ type: 'error', code: 'out_of_stock', path: '$.line_items[0]', content: 'Insufficient stock for item bouquet_sunflowers' }],
    });
  });
});

describe('UCP idempotency', () => {
  it('replays the first answer for the same key and body, and refuses the key with another body', async () => {
    const headers = { 'idempotency-key': 'create-once' };
    const first = await ucp(t, 'POST', '/checkout-sessions', roses(2), headers);
    const replay = await ucp(t, 'POST', '/checkout-sessions', roses(2), headers);
    expect(first.status).toBe(201);
    expect(replay).toMatchObject({ status: 201, body: first.body });
    expectUcpError(await ucp(t, 'POST', '/checkout-sessions', roses(3), headers), 409, 'IDEMPOTENCY_CONFLICT', 'Idempotency key reused with different parameters');
    const otherPlatform = await ucp(t, 'POST', '/checkout-sessions', roses(3), { ...headers, 'ucp-agent': 'profile="https://other.example/p"' });
    expect(otherPlatform.status).toBe(201);
    expect(otherPlatform.body.id).not.toBe(first.body.id);
  });

  it('places one order for a retried complete', async () => {
    const session = await readySession(t, [{ id: 'pot_ceramic', quantity: 1 }]);
    const headers = { 'idempotency-key': `complete-${session.id}` };
    const [a, b] = await Promise.all([
      ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, { payment_data: SUCCESS_CARD }, headers),
      ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, { payment_data: SUCCESS_CARD }, headers),
    ]);
    const answers = [a, b].filter((answer) => answer.status === 200);
    expect(answers.length).toBeGreaterThanOrEqual(1);
    const retry = await ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, { payment_data: SUCCESS_CARD }, headers);
    expect(retry).toMatchObject({ status: 200, body: answers[0]?.body });
  });
});
