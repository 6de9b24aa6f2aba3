import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippingRates } from '../../src/db/schema.ts';
import { ratesFor } from '../../src/ucp/checkout/catalog.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

/**
 * A checkout's rates and whether the shop has any come in one read: a country the rates miss ships flat only in a
 * shop without rates, so the read must tell "no rate for you" from "no rates at all".
 */
let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('ratesFor', () => {
  it('tells a shop without rates, a country the rates miss, and the rates a country gets apart', async () => {
    const { db } = t.database;
    expect(await ratesFor(db, 'DK')).toEqual({ rates: [], anyRate: false });

    await db.insert(shippingRates).values({ id: 'us-express', countryCode: 'US', serviceLevel: 'express', price: 1500, title: 'Express (US)' });
    expect(await ratesFor(db, 'DK')).toEqual({ rates: [], anyRate: true });
    expect((await ratesFor(db, 'US')).rates.map((rate) => rate.id)).toEqual(['us-express']);

    await db.insert(shippingRates).values({ id: 'std', countryCode: 'default', serviceLevel: 'standard', price: 500, title: 'Standard' });
    expect((await ratesFor(db, 'DK')).rates.map((rate) => rate.id)).toEqual(['std']);
    expect((await ratesFor(db, 'US')).rates.map((rate) => rate.id).sort()).toEqual(['std', 'us-express']);
  });
});
