import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ucpPaymentActions, ucpWebhookOutbox } from '../../src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { flowerShop, readySession, SUCCESS_CARD, ucp } from './helpers.ts';
import { simulatedPlatform } from './platform.ts';

const SECRET = 'simulation-secret-0123456789';
let t: TestApp;
let platform: Awaited<ReturnType<typeof simulatedPlatform>>;
const shopKeys = async () => JSON.parse((await t.app.inject({ method: 'GET', url: '/.well-known/ucp' })).body).signing_keys;

beforeAll(async () => {
  t = await flowerShop({ webhookTiming: { pollMs: 50, firstRetryMs: 100 }, env: { BUTIK_UCP_SIMULATION_SECRET: SECRET } });
  platform = await simulatedPlatform({ shopKeys });
});
afterAll(async () => {
  await platform?.stop();
  await t?.close();
});

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const agent = () => ({ 'ucp-agent': `profile="${platform.profileUrl}"` });

async function placeOrder(): Promise<{ orderId: string; checkoutId: string }> {
  const session = await readySession(t, [{ id: 'pot_ceramic', quantity: 1 }]);
  const completed = await ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, { payment_data: SUCCESS_CARD }, agent());
  expect(completed.status).toBe(200);
  return { orderId: completed.body.order.id, checkoutId: session.id };
}

describe('UCP order webhooks', () => {
  it('answers with the capabilities both sides speak, read from the platform profile', async () => {
    const created = await ucp(t, 'POST', '/checkout-sessions', { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }], currency: 'USD' }, agent());
    expect(created.body.ucp.capabilities.map((capability: { name: string }) => capability.name)).toEqual(['dev.ucp.shopping.checkout', 'dev.ucp.shopping.fulfillment']);
  });

  it('posts order_placed, signed with the published key, then order_shipped with the tracking', async () => {
    const { orderId, checkoutId } = await placeOrder();
    const placed = await until('order_placed', () => platform.received.find((event) => event.body.event_type === 'order_placed' && event.body.id === orderId));
    expect(placed.verified).toBe(true);
    expect(placed.messageSignature).toEqual({
      components: ['@method', '@authority', '@path', 'ucp-agent', 'idempotency-key', 'content-digest', 'content-type'],
      keyid: (await shopKeys())[0].kid,
    });
    expect(placed.headers['signature-input']).toMatch(/^sig1=\(.*\);created=\d+;keyid="butik-/);
    expect(placed.headers['webhook-id']).toBe(placed.headers['idempotency-key']);
    expect(Number(placed.headers['webhook-timestamp'])).toBeCloseTo(Date.parse(placed.body.created_time) / 1000, -1);
    expect(placed.headers['ucp-agent']).toBe('profile="http://butik.test/.well-known/ucp"');
    expect(placed.body).toMatchObject({
      id: orderId, checkout_id: checkoutId, event_type: 'order_placed', event_id: expect.stringMatching(/^evt_/),
      order: { id: orderId, checkout_id: checkoutId, fulfillment: { events: [] } },
    });
    expect(Date.parse(placed.body.created_time)).not.toBeNaN();

    const shipped = await t.call('orders.update_status', { orderId, status: 'shipped', carrier: 'GLS', trackingNumber: 'GLS123', trackingUrl: 'https://gls.example/GLS123' }, master);
    expect(shipped.status).toBe(200);
    const event = await until('order_shipped', () => platform.received.find((received) => received.body.event_type === 'order_shipped' && received.body.id === orderId));
    expect(event.verified).toBe(true);
    expect(event.body.order.fulfillment.events).toEqual([{
      id: expect.stringMatching(/^evt_/), occurred_at: expect.any(String), type: 'shipped',
      line_items: [{ id: expect.any(String), quantity: 1 }], carrier: 'GLS', tracking_number: 'GLS123', tracking_url: 'https://gls.example/GLS123',
    }]);
    expect(event.body.order.line_items[0]).toMatchObject({ quantity: { total: 1, fulfilled: 1 }, status: 'fulfilled' });
    const order = await ucp(t, 'GET', `/orders/${orderId}`);
    expect(order.body.fulfillment.events).toEqual(event.body.order.fulfillment.events);
  });

  it('keeps an event while the receiver is down and delivers it once when it is back', async () => {
    await platform.stop();
    const { orderId } = await placeOrder();
    await until('a failed attempt', async () => {
      const [row] = await t.database.db.select().from(ucpWebhookOutbox).where(eq(ucpWebhookOutbox.orderId, orderId));
      return row && row.attempts >= 2 && row.status === 'pending' ? row : undefined;
    });
    await platform.start();
    await until('delivery', async () => {
      const [row] = await t.database.db.select().from(ucpWebhookOutbox).where(eq(ucpWebhookOutbox.orderId, orderId));
      return row?.status === 'delivered' ? row : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(platform.received.filter((event) => event.body.id === orderId && event.body.event_type === 'order_placed')).toHaveLength(1);
  });

  it('ships through the simulation route only with the secret, like orders.update_status', async () => {
    const { orderId } = await placeOrder();
    const refused = await ucp(t, 'POST', `/testing/simulate-shipping/${orderId}`, undefined, { 'simulation-secret': 'wrong-secret-0123456789' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Invalid Simulation Secret');
    expect((await ucp(t, 'POST', `/testing/simulate-shipping/${orderId}`)).status).toBe(403);
    const shipped = await ucp(t, 'POST', `/testing/simulate-shipping/${orderId}`, undefined, { 'simulation-secret': SECRET });
    expect(shipped).toMatchObject({ status: 200, body: { status: 'shipped' } });
    expect((await t.call('orders.get', { orderId }, master)).body.result.status).toBe('shipped');
    await until('order_shipped', () => platform.received.find((event) => event.body.event_type === 'order_shipped' && event.body.id === orderId));
    const again = await ucp(t, 'POST', `/testing/simulate-shipping/${orderId}`, undefined, { 'simulation-secret': SECRET });
    expect(again.status).toBe(200);
    expect((await ucp(t, 'POST', '/testing/simulate-shipping/nope', undefined, { 'simulation-secret': SECRET })).status).toBe(404);
  });

  it('PUT /orders/{id} appends new events and adjustments, keeps the shop\'s members, and sends order_updated', async () => {
    const { orderId, checkoutId } = await placeOrder();
    const before = (await ucp(t, 'GET', `/orders/${orderId}`)).body;
    const lineId = before.line_items[0].id;
    const sent = {
      ...before,
      id: 'forged', checkout_id: 'forged', totals: [{ type: 'total', amount: 1 }],
      fulfillment: { ...before.fulfillment, events: [{ id: 'evt_platform_1', occurred_at: '2026-11-25T10:00:00+01:00', type: 'in_transit', line_items: [{ id: lineId, quantity: 1 }] }] },
      adjustments: [{ id: 'adj_1', type: 'credit', occurred_at: '2026-11-25T09:00:00Z', status: 'pending', amount: 100 }],
    };
    const updated = await ucp(t, 'PUT', `/orders/${orderId}`, sent);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: orderId, checkout_id: checkoutId, totals: before.totals });
    expect(updated.body.fulfillment.events).toEqual([sent.fulfillment.events[0]]);
    expect(updated.body.adjustments).toEqual(sent.adjustments);
    const twice = await ucp(t, 'PUT', `/orders/${orderId}`, sent);
    expect(twice.body.fulfillment.events).toHaveLength(1);
    await until('order_updated', () => platform.received.find((event) => event.body.event_type === 'order_updated' && event.body.id === orderId));

    const badTime = await ucp(t, 'PUT', `/orders/${orderId}`, { fulfillment: { events: [{ ...sent.fulfillment.events[0], id: 'e2', occurred_at: 'yesterday' }] } });
    expect(badTime.status).toBe(422);
    const badLine = await ucp(t, 'PUT', `/orders/${orderId}`, { fulfillment: { events: [{ ...sent.fulfillment.events[0], id: 'e3', line_items: [{ id: 'nope', quantity: 1 }] }] } });
    expect(badLine.status).toBe(422);
    expect(badLine.body.detail).toMatch(/line item nope is not in order/);
    expect((await ucp(t, 'PUT', '/orders/nope', {})).status).toBe(404);
  });

  it('marks an event failed when its retries run out; webhooks.list shows it and webhooks.retry sends it again', async () => {
    await platform.stop();
    const { orderId } = await placeOrder();
    const db = t.database.db;
    await until('a failed attempt', async () => {
      const [row] = await db.select().from(ucpWebhookOutbox).where(eq(ucpWebhookOutbox.orderId, orderId));
      return row && row.attempts >= 1 ? row : undefined;
    });
    await db.update(ucpWebhookOutbox).set({ giveUpAt: new Date(Date.now() - 1000) }).where(eq(ucpWebhookOutbox.orderId, orderId));
    const failed = await until('failed', async () => {
      const listed = await t.call('webhooks.list', {}, master);
      return listed.body.result.find((event: { orderId: string }) => event.orderId === orderId);
    });
    expect(failed).toMatchObject({ eventType: 'order_placed', status: 'failed', nextAttemptAt: null, deliveredAt: null, lastError: expect.stringMatching(/ECONNREFUSED|refused/) });

    await platform.start();
    const retried = await t.call('webhooks.retry', { id: failed.id }, master);
    expect(retried.body.result).toMatchObject({ id: failed.id, status: 'pending' });
    await until('delivered', async () => {
      const [row] = await db.select().from(ucpWebhookOutbox).where(eq(ucpWebhookOutbox.id, failed.id));
      return row?.status === 'delivered' ? row : undefined;
    });
    const again = await t.call('webhooks.retry', { id: failed.id }, master);
    expect(again.status).toBe(400);
    expect(again.body.detail).toMatch(/is delivered; only failed events are retried/);
    expect((await t.call('webhooks.retry', { id: 'nope' }, master)).status).toBe(404);
  });

  it('sends order_refunded with a refund adjustment over the whole amount when the (paid) order is refunded', async () => {
    const { orderId } = await placeOrder();
    const refunded = await t.call('orders.update_status', { orderId, status: 'refunded' }, master);
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const event = await until('order_refunded', () => platform.received.find((received) => received.body.event_type === 'order_refunded' && received.body.id === orderId));
    expect(event.body.order.adjustments).toEqual([{
      id: expect.stringMatching(/^adj_/), type: 'refund', occurred_at: expect.any(String), status: 'completed',
      line_items: [{ id: expect.any(String), quantity: 1 }], amount: 2000,
    }]);
    const refund = await until('the refund at the processor', async () => {
      const [row] = await t.database.db.select().from(ucpPaymentActions).where(eq(ucpPaymentActions.orderId, orderId));
      return row?.status === 'done' ? row : undefined;
    });
    expect(refund).toMatchObject({ action: 'refund', amount: 2000, attempts: 1, lastError: null });
  });
});
