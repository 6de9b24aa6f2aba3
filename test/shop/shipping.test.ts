import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippingRates } from '../../src/db/schema.ts';
import { ratesFor } from '../../src/shop/shipping.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

/**
 * A checkout's rates and whether the shop has any come in one read: a country the rates miss ships flat only in a
 * shop without rates, so the read must tell "no rate for you" (one other country's row) from "no rates at all".
 */
let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('ratesFor', () => {
  it('tells a shop without rates, a country the rates miss, and the rates a country gets apart', async () => {
    const { db } = t.database;
    const ids = async (country: string) => (await ratesFor(db, country)).map((rate) => rate.id).sort();
    expect(await ids('DK')).toEqual([]);

    await db.insert(shippingRates).values({ id: 'us-express', countryCode: 'US', serviceLevel: 'express', price: 1500, title: 'Express (US)' });
    expect(await ids('DK')).toEqual(['us-express']);
    expect(await ids('US')).toEqual(['us-express']);

    await db.insert(shippingRates).values({ id: 'std', countryCode: 'default', serviceLevel: 'standard', price: 500, title: 'Standard' });
    expect(await ids('DK')).toContain('std');
    expect(await ids('US')).toEqual(['std', 'us-express']);
    expect(await ids('default')).toContain('std');
  });
});
