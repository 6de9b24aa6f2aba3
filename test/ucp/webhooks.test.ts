import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ucpWebhookOutbox } from '../../src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { flowerShop, readySession, SUCCESS_CARD, ucp } from './helpers.ts';
import { simulatedPlatform } from './platform.ts';

let t: TestApp;
let platform: Awaited<ReturnType<typeof simulatedPlatform>>;
const shopKeys = async () => JSON.parse((await t.app.inject({ method: 'GET', url: '/.well-known/ucp' })).body).signing_keys;

beforeAll(async () => {
  t = await flowerShop({ webhookTiming: { pollMs: 50, firstRetryMs: 100 } });
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
});
