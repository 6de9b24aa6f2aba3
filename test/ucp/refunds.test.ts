import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ucpPaymentActions } from '../../src/db/schema.ts';
import { mockProcessor } from '../../src/ucp/payments/processors.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { flowerShop, readySession, SUCCESS_CARD, ucp } from './helpers.ts';
import { simulatedPlatform } from './platform.ts';

let t: TestApp;
let platform: Awaited<ReturnType<typeof simulatedPlatform>>;
const shopKeys = async () => JSON.parse((await t.app.inject({ method: 'GET', url: '/.well-known/ucp' })).body).signing_keys;

beforeAll(async () => {
  t = await flowerShop();
  platform = await simulatedPlatform({ shopKeys });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await platform?.stop();
  await t?.close();
});

async function placeUcpOrder(): Promise<{ orderId: string; reference: string }> {
  const session = await readySession(t, [{ id: 'pot_ceramic', quantity: 1 }]);
  const completed = await ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, { payment_data: SUCCESS_CARD },
    { 'ucp-agent': `profile="${platform.profileUrl}"` });
  expect(completed.status).toBe(200);
  const orderId = completed.body.order.id as string;
  const order = (await t.call('orders.get', { orderId }, master)).body.result;
  return { orderId, reference: order.processorPaymentIntentId };
}

describe('orders.refund of an order paid through a UCP processor', () => {
  it('pays the amount back through the processor before recording it, and queues no second payback', async () => {
    const refund = vi.spyOn(mockProcessor, 'refund');
    const { orderId, reference } = await placeUcpOrder();
    expect(reference).toMatch(/^mock_/);
    const response = await t.call('orders.refund', { orderId, amount: 500 }, master);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.result).toMatchObject({ status: 'partial_refund', amount: 500, remainingDkk: 1500 });
    expect(refund).toHaveBeenCalledWith(reference, 500);
    expect(await t.database.db.select().from(ucpPaymentActions).where(eq(ucpPaymentActions.orderId, orderId))).toEqual([]);
    refund.mockRestore();
  });

  it('a later move to refunded by orders.update_status queues only what is left, not the whole total again', async () => {
    const { orderId } = await placeUcpOrder();
    expect((await t.call('orders.refund', { orderId, amount: 500 }, master)).status).toBe(200);
    expect((await t.call('orders.update_status', { orderId, status: 'refunded' }, master)).status).toBe(200);
    const actions = await t.database.db.select().from(ucpPaymentActions).where(eq(ucpPaymentActions.orderId, orderId));
    expect(actions.map((action) => action.amount)).toEqual([1500]);
  });

  it('refuses the refund with payment_refund_failed when the processor fails, recording nothing', async () => {
    const refund = vi.spyOn(mockProcessor, 'refund').mockRejectedValueOnce(new Error('card account closed'));
    const { orderId } = await placeUcpOrder();
    const response = await t.call('orders.refund', { orderId }, master);
    expect(response.status).toBe(502);
    expect(response.body.code).toBe('payment_refund_failed');
    expect(response.body.detail).toContain('nothing was recorded');
    expect(response.body.detail).not.toContain('card account closed');
    const order = (await t.call('orders.get', { orderId }, master)).body.result;
    expect(order.refunds).toEqual([]);
    expect(order.refundedAt).toBeNull();
    refund.mockRestore();
  });
});
