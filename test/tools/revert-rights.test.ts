import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport, parseImportArgs } from '../../src/import/command.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';

let t: TestApp;
let reverter = '';
beforeAll(async () => {
  t = await createTestApp();
  reverter = await t.keyWith('audit:read', 'audit:revert');
});
afterAll(async () => { await t?.close(); });

async function latestEntryId(filter: { tool: string; targetId?: string }): Promise<string> {
  const listed = await t.call('audit.list', { ...filter, limit: 1 }, master);
  const id: unknown = listed.body.result[0]?.id;
  if (typeof id !== 'string') throw new Error(`no ${filter.tool} entry`);
  return id;
}

describe('audit.revert needs the rights of the tool that made the entry', () => {
  it('refuses a key holding only audit:read and audit:revert a setting, the currency and a feature switch, and changes nothing', async () => {
    await t.call('settings.update', { shippingDkk: 3900, currency: 'EUR' }, master);
    await t.call('features.set', { key: 'checkout', enabled: false }, master);
    for (const [tool, targetId, scope] of [
      ['settings.update', 'shippingDkk', 'settings:write'], ['settings.update', 'currency', 'settings:write'], ['features.set', 'checkout', 'features:write'],
    ] as const) {
      const refused = await t.call('audit.revert', { entryId: await latestEntryId({ tool, targetId }) }, { key: reverter });
      expect(refused.status, `${tool} ${targetId}`).toBe(403);
      expect(refused.body).toMatchObject({ code: 'insufficient_scope' });
      expect(refused.body.detail).toContain(`${tool}, which needs scope ${scope}`);
    }
    expect((await t.call('settings.get', {}, master)).body.result).toMatchObject({ shippingDkk: 3900, currency: 'EUR' });
    const flags = await t.call('features.list', {}, master);
    expect(flags.body.result.find((flag: { key: string }) => flag.key === 'checkout')).toMatchObject({ enabled: false });
    await t.call('settings.update', { shippingDkk: 4900, currency: 'DKK' }, master);
    await t.call('features.set', { key: 'checkout', enabled: true }, master);
  });

  it('lets a key that also holds the writing tool\'s scope revert', async () => {
    const product = await createProduct(t, { priceDkk: 10000 });
    await t.call('products.update', { slug: product.slug, patch: { priceDkk: 1 } }, master);
    const entryId = await latestEntryId({ tool: 'products.update', targetId: product.id });
    expect((await t.call('audit.revert', { entryId }, { key: reverter })).status).toBe(403);
    const both = await t.keyWith('audit:revert', 'products:write');
    expect((await t.call('audit.revert', { entryId }, { key: both })).status).toBe(200);
    expect((await t.call('products.get', { slug: product.slug })).body.result.priceDkk).toBe(10000);
  });

  it('keeps an import\'s entries to those who may import: the master key, never another key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'butik-revert-'));
    const slug = uniqueSlug('imported');
    writeFileSync(join(dir, 'products.csv'), `id,title,price\n${slug},Imported,100\n`);
    const imported = await runImport(t.database.db, parseImportArgs([dir]), new Date());
    expect(imported.exitCode, imported.stderr.join('\n')).toBe(0);
    const { id } = (await t.call('products.get', { slug })).body.result;
    const entryId = await latestEntryId({ tool: 'import', targetId: id });
    const everything = await t.keyWith('audit:revert', 'products:write', 'settings:write', 'categories:write', 'discounts:write');
    const refused = await t.call('audit.revert', { entryId }, { key: everything });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('only the shop owner');
    expect((await t.call('audit.revert', { entryId }, master)).status).toBe(200);
    expect((await t.call('products.get', { slug })).status).toBe(404);
  });
});
