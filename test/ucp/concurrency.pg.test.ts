import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discounts, orders, products } from '../../src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { flowerShop, readySession, SUCCESS_CARD, ucp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await flowerShop({ db: { poolSize: 20 } }); });
afterAll(async () => { await t?.close(); });

describe('UCP completions under concurrency', () => {
  it('50 sessions racing for the last 10 units and a code with 5 uses left: no oversell, no over-use', async () => {
    const db = t.database.db;
    await db.update(products).set({ stock: 10 }).where(eq(products.sku, 'orchid_white'));
    await db.update(discounts).set({ usageLimit: 5, usageCount: 0 }).where(eq(discounts.code, '10OFF'));
    const sessions = [];
    for (let i = 0; i < 50; i += 1) {
      sessions.push(await readySession(t, [{ id: 'orchid_white', quantity: 1 }], { discounts: { codes: i % 2 === 0 ? ['10OFF'] : [] } }));
    }
    const answers = await Promise.all(sessions.map((session) => ucp(t, 'POST', `/checkout-sessions/${session.id}/complete`, { payment_data: SUCCESS_CARD })));
    const completed = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(completed).toHaveLength(10);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(['OUT_OF_STOCK', 'DISCOUNT_UNAVAILABLE']).toContain(answer.body.code);
    }
    const [stock] = await db.select({ stock: products.stock }).from(products).where(eq(products.sku, 'orchid_white'));
    expect(stock?.stock).toBe(0);
    const [code] = await db.select({ used: discounts.usageCount }).from(discounts).where(eq(discounts.code, '10OFF'));
    const placed = await db.select({ code: orders.discountCode }).from(orders).where(eq(orders.channel, 'ucp'));
    expect(placed).toHaveLength(10);
    expect(code?.used).toBe(placed.filter((order) => order.code === '10OFF').length);
    expect(code?.used).toBeLessThanOrEqual(5);
  });
});
