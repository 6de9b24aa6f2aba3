import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/db/schema.ts';
import { FEATURES, isFeatureEnabled } from '../../src/shop/features.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

function featureAudit(key: string) {
  return t.database.db.select().from(auditEntries)
    .where(and(eq(auditEntries.targetType, 'feature'), eq(auditEntries.targetId, key)));
}

describe('features.list', () => {
  it('lists every known flag with its default while none is set', async () => {
    const response = await t.call('features.list', {}, { key: await t.keyWith('features:read') });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual(Object.entries(FEATURES).map(([key, feature]) => ({
      key, enabled: feature.default, description: feature.description, default: feature.default, updatedAt: null,
    })));
    expect(response.body.result.map((flag: { key: string }) => flag.key)).toEqual(['checkout', 'services_listing']);
  });

  it('answers 401 anonymously and 403 insufficient_scope to a key with only features:write', async () => {
    expect((await t.call('features.list', {})).status).toBe(401);
    const response = await t.call('features.list', {}, { key: await t.keyWith('features:write') });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('insufficient_scope');
  });
});

describe('features.set', () => {
  it('switches checkout off, shows it in features.list and audits the change', async () => {
    const key = await t.keyWith('features:write');
    const response = await t.call('features.set', { key: 'checkout', enabled: false }, { key });
    expect(response.status).toBe(200);
    expect(response.body.result).toMatchObject({
      key: 'checkout', enabled: false, default: true, description: FEATURES.checkout.description,
    });
    expect(Date.parse(response.body.result.updatedAt)).not.toBeNaN();
    expect(await isFeatureEnabled(t.database.db, 'checkout')).toBe(false);

    const listed = await t.call('features.list', {}, master);
    expect(listed.body.result.find((flag: { key: string }) => flag.key === 'checkout')).toEqual(response.body.result);

    const [entry] = await featureAudit('checkout');
    expect(entry).toMatchObject({ tool: 'features.set', before: null });
    expect(entry?.after).toMatchObject({ key: 'checkout', enabled: false });
  });

  it('records the previous row when a stored flag changes again, and nothing when it does not', async () => {
    await t.call('features.set', { key: 'services_listing', enabled: false }, master);
    await t.call('features.set', { key: 'services_listing', enabled: true }, master);
    const same = await t.call('features.set', { key: 'services_listing', enabled: true }, master);
    expect(same.status).toBe(200);
    expect(same.body.result.enabled).toBe(true);
    const entries = await featureAudit('services_listing');
    expect(entries).toHaveLength(2);
    expect(entries.map((entry) => entry.before)).toContainEqual(expect.objectContaining({ enabled: false }));
  });

  it('undoes a switch with audit.revert, back to the default', async () => {
    const [entry] = await featureAudit('checkout');
    if (!entry) throw new Error('no audit entry');
    const reverted = await t.call('audit.revert', { entryId: entry.id }, master);
    expect(reverted.status).toBe(200);
    expect(await isFeatureEnabled(t.database.db, 'checkout')).toBe(true);
    const listed = await t.call('features.list', {}, master);
    expect(listed.body.result.find((flag: { key: string }) => flag.key === 'checkout')).toMatchObject({ enabled: true, updatedAt: null });
  });

  it('answers 404 not_found for an unknown flag', async () => {
    const response = await t.call('features.set', { key: 'dark_mode', enabled: true }, master);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('not_found');
    expect(response.body.detail).toContain('checkout');
  });

  it.each([
    ['a missing enabled', { key: 'checkout' }],
    ['enabled as a string', { key: 'checkout', enabled: 'false' }],
    ['an empty key', { key: '', enabled: true }],
    ['an unknown field', { key: 'checkout', enabled: true, note: 'x' }],
  ])('rejects %s with 400 validation_failed', async (_name, body) => {
    const response = await t.call('features.set', body, master);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
  });

  it('answers 403 to a key with only features:read and 401 anonymously', async () => {
    const response = await t.call('features.set', { key: 'checkout', enabled: true }, { key: await t.keyWith('features:read') });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('insufficient_scope');
    expect((await t.call('features.set', { key: 'checkout', enabled: true })).status).toBe(401);
  });
});
