import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/db/schema.ts';
import { DEFAULT_SETTINGS, readSettings } from '../../src/shop/settings.ts';
import { createTestApp } from '../helpers/app.ts';
import { placeOrder } from '../helpers/commerce.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

function settingsAudit(key: string) {
  return t.database.db.select().from(auditEntries)
    .where(and(eq(auditEntries.targetType, 'settings'), eq(auditEntries.targetId, key)))
    .orderBy(asc(auditEntries.at), asc(auditEntries.id));
}

describe('settings.get', () => {
  it('returns the defaults before anything is set', async () => {
    const key = await t.keyWith('settings:read');
    const response = await t.call('settings.get', {}, { key });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({
      storeName: 'Butik', tagline: null, contactEmail: null, companyAddress: null, cvrNumber: null,
      shippingDkk: 4900, freeShippingThresholdDkk: 50000, stackDiscountCodes: false, currency: 'DKK',
      searchVocabulary: { words: {}, ignore: [] },
    });
    expect(response.body.result).toEqual(DEFAULT_SETTINGS);
  });

  it('answers 401 to an anonymous caller and 403 insufficient_scope to a key without settings:read', async () => {
    const anonymous = await t.call('settings.get', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('unauthorized');
    const response = await t.call('settings.get', {}, { key: await t.keyWith('settings:write') });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('insufficient_scope');
    expect(response.headers['www-authenticate']).toContain('scope="settings:read"');
  });

  it('rejects unknown request fields with 400 validation_failed', async () => {
    const response = await t.call('settings.get', { storeName: 'x' }, master);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
  });
});

describe('settings.update', () => {
  it('changes only the given fields and returns all settings', async () => {
    const key = await t.keyWith('settings:write');
    const response = await t.call('settings.update', { shippingDkk: 3900, tagline: 'Fri fragt over 750 kr.' }, { key });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ ...DEFAULT_SETTINGS, shippingDkk: 3900, tagline: 'Fri fragt over 750 kr.' });
    const read = await t.call('settings.get', {}, master);
    expect(read.body.result).toEqual(response.body.result);
    expect(await readSettings(t.database.db)).toEqual(response.body.result);
  });

  it('audits each changed setting with the row before and after', async () => {
    await t.call('settings.update', { freeShippingThresholdDkk: 75000 }, master);
    await t.call('settings.update', { freeShippingThresholdDkk: 60000 }, master);
    const entries = await settingsAudit('freeShippingThresholdDkk');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ tool: 'settings.update', actorName: 'master', before: null });
    expect(entries[0]?.after).toMatchObject({ key: 'freeShippingThresholdDkk', value: { value: 75000 } });
    expect(entries[1]?.before).toMatchObject({ key: 'freeShippingThresholdDkk', value: { value: 75000 } });
    expect(entries[1]?.after).toMatchObject({ key: 'freeShippingThresholdDkk', value: { value: 60000 } });
  });

  it('leaves no audit entry for a value that did not change', async () => {
    await t.call('settings.update', { storeName: 'Solbutikken' }, master);
    const again = await t.call('settings.update', { storeName: 'Solbutikken' }, master);
    expect(again.status).toBe(200);
    expect(again.body.result.storeName).toBe('Solbutikken');
    expect(await settingsAudit('storeName')).toHaveLength(1);
  });

  it('clears a nullable field with null', async () => {
    await t.call('settings.update', { contactEmail: 'hej@butik.dk', cvrNumber: '12345678' }, master);
    const cleared = await t.call('settings.update', { contactEmail: null }, master);
    expect(cleared.status).toBe(200);
    expect(cleared.body.result).toMatchObject({ contactEmail: null, cvrNumber: '12345678' });
    const entries = await settingsAudit('contactEmail');
    expect(entries.at(-1)?.after).toMatchObject({ key: 'contactEmail', value: { value: null } });
  });

  it('keeps a digits-only CVR number a string (regression: jsonb strings came back as numbers)', async () => {
    const response = await t.call('settings.update', { cvrNumber: '87654321' }, master);
    expect(response.body.result.cvrNumber).toBe('87654321');
    expect((await readSettings(t.database.db)).cvrNumber).toBe('87654321');
  });

  it('undoes a change with audit.revert, back to the default when the setting was never set', async () => {
    await t.call('settings.update', { companyAddress: 'Nørregade 1, 1165 København K' }, master);
    const [first] = await settingsAudit('companyAddress');
    if (!first) throw new Error('no audit entry');
    const reverted = await t.call('audit.revert', { entryId: first.id }, master);
    expect(reverted.status).toBe(200);
    const read = await t.call('settings.get', {}, master);
    expect(read.body.result.companyAddress).toBeNull();
  });

  it('undoes a clearing to null with audit.revert', async () => {
    await t.call('settings.update', { tagline: 'Solbriller siden 1999' }, master);
    await t.call('settings.update', { tagline: null }, master);
    const last = (await settingsAudit('tagline')).at(-1);
    if (!last) throw new Error('no audit entry');
    expect((await t.call('audit.revert', { entryId: last.id }, master)).status).toBe(200);
    expect((await readSettings(t.database.db)).tagline).toBe('Solbriller siden 1999');
  });

  it('records the shop currency on new orders once it is changed; stored amounts stay as they are', async () => {
    await t.call('settings.update', { currency: 'EUR' }, master);
    try {
      expect((await t.call('settings.get', {}, master)).body.result.currency).toBe('EUR');
      const { orderId } = await placeOrder(t);
      const order = await t.call('orders.get', { orderId }, master);
      expect(order.body.result).toMatchObject({ currency: 'EUR', subtotalDkk: 20000 });
    } finally {
      await t.call('settings.update', { currency: 'DKK' }, master);
    }
  });

  it.each([
    ['an empty patch', {}],
    ['an unknown field', { locale: 'da-DK' }],
    ['a currency that is not ISO 4217', { currency: 'XYZ' }],
    ['a currency in lower case', { currency: 'eur' }],
    ['a negative shipping price', { shippingDkk: -1 }],
    ['a shipping price over 10.000 kr', { shippingDkk: 1_000_001 }],
    ['a fractional amount', { freeShippingThresholdDkk: 499.5 }],
    ['an amount as a string', { shippingDkk: '4900' }],
    ['an invalid e-mail', { contactEmail: 'not-an-email' }],
    ['a CVR number of 7 digits', { cvrNumber: '1234567' }],
    ['an empty store name', { storeName: '   ' }],
    ['a null store name', { storeName: null }],
  ])('rejects %s with 400 validation_failed', async (_name, body) => {
    const response = await t.call('settings.update', body, master);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors.length).toBeGreaterThan(0);
  });

  it('answers 403 insufficient_scope to a read-only key and 401 to an anonymous caller', async () => {
    const readOnly = await t.call('settings.update', { shippingDkk: 0 }, { key: await t.keyWith('settings:read') });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.code).toBe('insufficient_scope');
    const anonymous = await t.call('settings.update', { shippingDkk: 0 });
    expect(anonymous.status).toBe(401);
    expect((await readSettings(t.database.db)).shippingDkk).toBe(3900);
  });
});
