import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promotions, shippingRates } from '../../src/db/schema.ts';
import { priceShipping } from '../../src/domain/pricing.ts';
import { shippingBook, writeRate } from '../../src/shop/shipping.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';

/**
 * Every cart answer and checkout prices shipping from the shop's rates and promotions, which are kept in memory
 * beside the settings: no reader may get them older than the last commit it could know of, whoever wrote them.
 */
let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const rateIds = async () => (await shippingBook(t.database.db)).rates.map((rate) => rate.id).sort();

describe('the shipping book', () => {
  it('holds every rate, so a country the rates miss is told from a shop without rates', async () => {
    const { db } = t.database;
    expect(await rateIds()).toEqual([]);
    // A statement no tool sent, as psql would: the trigger on the table drops what the instance holds.
    await db.insert(shippingRates).values({ id: 'us-express', countryCode: 'US', serviceLevel: 'express', price: 1500, title: 'Express (US)' });
    await expect.poll(rateIds).toEqual(['us-express']);
    const book = await shippingBook(db);
    expect(priceShipping({ afterDiscounts: 10_000, itemIds: [], country: 'DK' }, book)).toEqual({ options: [], charged: null });
    expect(priceShipping({ afterDiscounts: 10_000, itemIds: [], country: 'US' }, book).charged)
      .toEqual({ id: 'us-express', title: 'Express (US)', amount: 1500 });
  });

  it('lets a transaction that writes a rate read its own write, and everyone else the old rates until it commits', async () => {
    const { db } = t.database;
    await shippingBook(db);
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    let inside: string[] | undefined;
    const writing = db.transaction(async (tx) => {
      await writeRate(tx, { id: 'std', countryCode: 'default', serviceLevel: 'standard', price: 500, title: 'Standard' }, new Date());
      inside = (await shippingBook(tx)).rates.map((rate) => rate.id).sort();
      await held;
    });
    await expect.poll(() => inside).toEqual(['std', 'us-express']);
    expect(await rateIds()).toEqual(['us-express']);
    release();
    await writing;
    expect(await rateIds()).toEqual(['std', 'us-express']);
  });

  it('shows a promotion set, deleted and reverted through the tools on the next read', async () => {
    const { db } = t.database;
    const minimums = async () => (await shippingBook(db)).promotions.map((promotion) => promotion.minSubtotal);
    expect(await minimums()).toEqual([]);
    const set = await t.call('shipping.set_promotion', { id: 'free-500', description: 'Free from 500 kr', minSubtotal: 50_000 }, master);
    expect(set.status).toBe(200);
    expect(await minimums()).toEqual([50_000]);
    expect((await t.call('shipping.delete_promotion', { id: 'free-500', confirm: true }, master)).status).toBe(200);
    expect(await minimums()).toEqual([]);
    const entry = (await t.call('audit.list', { tool: 'shipping.delete_promotion', limit: 1 }, master)).body.result[0];
    expect((await t.call('audit.revert', { entryId: entry.id }, master)).status).toBe(200);
    expect(await minimums()).toEqual([50_000]);
    await db.delete(promotions);
    await expect.poll(minimums).toEqual([]);
  });
});
