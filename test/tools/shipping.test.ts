import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { checkoutBody, createCart, shipping } from '../helpers/commerce.ts';
import { createProduct, master } from '../helpers/fixtures.ts';

/** The owner's shipping tools over REST: what they write is what shipping.list and every checkout then price with. */
let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

async function latestEntry(targetType: string, targetId: string) {
  const [entry] = await t.database.db.select().from(auditEntries)
    .where(and(eq(auditEntries.targetType, targetType), eq(auditEntries.targetId, targetId)))
    .orderBy(desc(auditEntries.at), desc(auditEntries.id)).limit(1);
  if (!entry) throw new Error(`no audit entry for ${targetType} ${targetId}`);
  return entry;
}

const list = async () => (await t.call('shipping.list', {}, master)).body.result;

describe('shipping tools', () => {
  it('need the settings scopes: reading settings:read, writing settings:write', async () => {
    const reader = await t.keyWith('settings:read');
    expect((await t.call('shipping.list', {}, { key: reader })).body.result).toEqual({ rates: [], promotions: [] });
    const refused = await t.call('shipping.set_rate', { id: 'x', title: 'X', serviceLevel: 'standard', countryCode: 'DK', price: 1 }, { key: reader });
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toContain('scope="settings:write"');
  });

  it('create and replace a rate by id, list it, and leave no entry for an unchanged one', async () => {
    const key = await t.keyWith('settings:write');
    const created = await t.call('shipping.set_rate', { id: 'dk-std', title: 'PostNord', serviceLevel: 'Standard', countryCode: 'DK', price: 3900 }, { key });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ id: 'dk-std', title: 'PostNord', serviceLevel: 'standard', countryCode: 'DK', price: 3900 });
    await t.call('shipping.set_rate', { id: 'any-std', title: 'Standard abroad', serviceLevel: 'standard', countryCode: 'default', price: 9900 }, { key });
    const replaced = await t.call('shipping.set_rate', { id: 'dk-std', title: 'PostNord', serviceLevel: 'standard', countryCode: 'DK', price: 4500 }, { key });
    expect(replaced.body.result.price).toBe(4500);
    const entry = await latestEntry('shipping_rate', 'dk-std');
    expect(entry).toMatchObject({ tool: 'shipping.set_rate', before: expect.objectContaining({ price: 3900 }), after: expect.objectContaining({ price: 4500 }) });
    await t.call('shipping.set_rate', { id: 'dk-std', title: 'PostNord', serviceLevel: 'standard', countryCode: 'DK', price: 4500 }, { key });
    expect((await latestEntry('shipping_rate', 'dk-std')).id).toBe(entry.id);
    // The own country first, default last.
    expect((await list()).rates.map((rate: { id: string; price: number }) => [rate.id, rate.price])).toEqual([['dk-std', 4500], ['any-std', 9900]]);
  });

  it('refuses a rate that is no country, a negative price and an unknown field by name', async () => {
    const response = await t.call('shipping.set_rate', { id: 'bad', title: 'X', serviceLevel: 'standard', countryCode: 'Danmark', price: -1 }, master);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path).sort()).toEqual(['countryCode', 'price']);
  });

  it('charge what they set: cart.checkout to DK pays the DK rate, and a promotion makes it free', async () => {
    // A product made by products.create has no SKU: a promotion names it by its slug.
    const product = await createProduct(t, { priceDkk: 20000, stock: 10 });
    const checkout = async (country: string) => {
      const cart = await createCart(t, { items: [{ slug: product.slug, quantity: 1 }] });
      return (await t.call('cart.checkout', checkoutBody(cart.cartId, { shipping: { ...shipping, country } }), master)).body.result.totalDkk;
    };
    expect(await checkout('DK')).toBe(24500);
    expect(await checkout('SE')).toBe(29900);
    const promoted = await t.call('shipping.set_promotion', { id: 'sun-free', description: 'Solbriller fragtfri', eligibleSkus: [product.slug] }, master);
    expect(promoted.body.result).toMatchObject({ id: 'sun-free', type: 'free_shipping', minSubtotal: null, eligibleSkus: [product.slug] });
    expect(await checkout('DK')).toBe(20000);
    expect((await list()).promotions.map((promotion: { id: string }) => promotion.id)).toEqual(['sun-free']);
  });

  it('refuses a promotion without a minimum or items', async () => {
    const response = await t.call('shipping.set_promotion', { id: 'empty', description: 'Nothing' }, master);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('minSubtotal');
  });

  it('delete with confirm, 404 for an unknown id, and audit.revert brings a deleted rate and promotion back', async () => {
    expect((await t.call('shipping.delete_rate', { id: 'dk-std' }, master)).status).toBe(400);
    const deleted = await t.call('shipping.delete_rate', { id: 'dk-std', confirm: true }, master);
    expect(deleted.body.result).toEqual({ ok: true, id: 'dk-std' });
    expect((await list()).rates.map((rate: { id: string }) => rate.id)).toEqual(['any-std']);
    const unknown = await t.call('shipping.delete_rate', { id: 'dk-std', confirm: true }, master);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain('shipping.list');

    const reverted = await t.call('audit.revert', { entryId: (await latestEntry('shipping_rate', 'dk-std')).id }, master);
    expect(reverted.status).toBe(200);
    expect((await list()).rates).toContainEqual(expect.objectContaining({ id: 'dk-std', price: 4500, countryCode: 'DK' }));

    await t.call('shipping.delete_promotion', { id: 'sun-free', confirm: true }, master);
    expect((await list()).promotions).toEqual([]);
    await t.call('audit.revert', { entryId: (await latestEntry('promotion', 'sun-free')).id }, master);
    expect((await list()).promotions).toEqual([expect.objectContaining({ id: 'sun-free', description: 'Solbriller fragtfri' })]);
  });

  it('audit.revert of a created rate removes it again', async () => {
    await t.call('shipping.set_rate', { id: 'tmp', title: 'Tmp', serviceLevel: 'express', countryCode: 'NO', price: 100 }, master);
    await t.call('audit.revert', { entryId: (await latestEntry('shipping_rate', 'tmp')).id }, master);
    expect((await list()).rates.map((rate: { id: string }) => rate.id)).not.toContain('tmp');
  });
});
