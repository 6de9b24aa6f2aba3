import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

async function latestEntryId(filter: { tool: string; targetId?: string }): Promise<string> {
  const listed = await t.call('audit.list', { ...filter, limit: 1 }, master);
  const id: unknown = listed.body.result[0]?.id;
  if (typeof id !== 'string') throw new Error(`no ${filter.tool} entry`);
  return id;
}

const revert = (entryId: string) => t.call('audit.revert', { entryId }, master);

const pageBody = 'Vi sender med PostNord inden for 1-3 hverdage.';

describe('audit.revert on content, discounts, settings and flags', () => {
  it('switches a toggled discount back', async () => {
    const code = `REV${Date.now()}`;
    const created = await t.call('discounts.create', { code, type: 'percent', value: 10 }, master);
    await t.call('discounts.toggle', { code, active: false }, master);
    expect((await revert(await latestEntryId({ tool: 'discounts.toggle', targetId: created.body.result.id }))).status).toBe(200);
    const got = await t.call('discounts.get', { code }, master);
    expect(got.body.result).toMatchObject({ active: true });
  });

  it('re-inserts a hard-deleted page with its id, title and body', async () => {
    const slug = uniqueSlug('levering');
    const page = await t.call('pages.upsert', { slug, title: 'Levering', body: pageBody }, master);
    await t.call('pages.delete', { slug, confirm: true }, master);
    expect((await t.call('site.get_page', { slug })).status).toBe(404);

    expect((await revert(await latestEntryId({ tool: 'pages.delete', targetId: page.body.result.id }))).status).toBe(200);
    const got = await t.call('site.get_page', { slug });
    expect(got.status).toBe(200);
    expect(got.body.result).toMatchObject({ slug, title: 'Levering', body: pageBody });
  });

  it('refuses to re-insert a deleted page whose slug another page took meanwhile', async () => {
    const slug = uniqueSlug('om-os');
    const page = await t.call('pages.upsert', { slug, title: 'Om os', body: pageBody }, master);
    await t.call('pages.delete', { slug, confirm: true }, master);
    await t.call('pages.upsert', { slug, title: 'Ny side', body: pageBody }, master);

    const refused = await revert(await latestEntryId({ tool: 'pages.delete', targetId: page.body.result.id }));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('not_revertible');
    expect(refused.body.detail).toContain(`slug of the page "${slug}"`);
    expect((await t.call('site.get_page', { slug })).body.result).toMatchObject({ title: 'Ny side' });
  });

  it('restores an updated service offering and brings back a deleted one', async () => {
    const slug = uniqueSlug('design');
    const created = await t.call('services.create', { slug, title: 'Webdesign', body: 'Vi bygger din butik.', priceString: 'Fra 5.000 kr.' }, master);
    const id = created.body.result.id;
    await t.call('services.update', { slug, patch: { priceString: 'Fra 9.000 kr.', features: ['SEO'] } }, master);
    expect((await revert(await latestEntryId({ tool: 'services.update', targetId: id }))).status).toBe(200);
    expect((await t.call('services.get', { slug }, master)).body.result).toMatchObject({ priceString: 'Fra 5.000 kr.', features: [] });

    await t.call('services.delete', { slug, confirm: true }, master);
    expect((await revert(await latestEntryId({ tool: 'services.delete', targetId: id }))).status).toBe(200);
    expect((await t.call('services.get', { slug }, master)).body.result).toMatchObject({ id, title: 'Webdesign' });
  });

  it('puts a changed setting back to its default', async () => {
    await t.call('settings.update', { shippingDkk: 3900 }, master);
    expect((await revert(await latestEntryId({ tool: 'settings.update', targetId: 'shippingDkk' }))).status).toBe(200);
    expect((await t.call('settings.get', {}, master)).body.result).toMatchObject({ shippingDkk: 4900 });
  });

  it('restores a setting that was cleared to null', async () => {
    await t.call('settings.update', { tagline: 'Først' }, master);
    await t.call('settings.update', { tagline: null }, master);
    await t.call('settings.update', { tagline: 'Sidst' }, master);
    expect((await revert(await latestEntryId({ tool: 'settings.update', targetId: 'tagline' }))).status).toBe(200);
    expect((await t.call('settings.get', {}, master)).body.result).toMatchObject({ tagline: null });
  });

  it('switches a feature flag back', async () => {
    await t.call('features.set', { key: 'checkout', enabled: false }, master);
    expect((await revert(await latestEntryId({ tool: 'features.set', targetId: 'checkout' }))).status).toBe(200);
    const flags = await t.call('features.list', {}, master);
    expect(flags.body.result.find((f: { key: string }) => f.key === 'checkout')).toMatchObject({ enabled: true });
  });

  it('restores a replaced announcement banner, its schedule included, and brings back a cleared one', async () => {
    const first = { text: 'Sommerudsalg', startsAt: '2026-06-01T00:00:00.000Z', active: true };
    const set = await t.call('marketing.set_announcement', first, master);
    expect(set.status).toBe(200);
    await t.call('marketing.set_announcement', { text: 'Vinterudsalg', active: true }, master);
    expect((await revert(await latestEntryId({ tool: 'marketing.set_announcement', targetId: set.body.result.id }))).status).toBe(200);
    expect((await t.call('marketing.get_announcement', {}, master)).body.result).toMatchObject({ ...first, endsAt: null });

    await t.call('marketing.clear_announcement', { confirm: true }, master);
    expect((await revert(await latestEntryId({ tool: 'marketing.clear_announcement', targetId: set.body.result.id }))).status).toBe(200);
    expect((await t.call('marketing.get_announcement', {}, master)).body.result).toMatchObject({ text: 'Sommerudsalg', active: true });
  });
});

describe('audit.revert under concurrency', () => {
  it('lets exactly one of five concurrent reverts of one entry through', async () => {
    const product = await createProduct(t, { priceDkk: 100000 });
    await t.call('products.update', { slug: product.slug, patch: { priceDkk: 1 } }, master);
    const entryId = await latestEntryId({ tool: 'products.update', targetId: product.id });
    const responses = await Promise.all(Array.from({ length: 5 }, () => revert(entryId)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422]);
    const reverts = await t.call('audit.list', { tool: 'audit.revert', targetId: product.id }, master);
    expect(reverts.body.result).toHaveLength(1);
  });
});

describe('audit.revert and timestamps', () => {
  /** The stored instants as PostgreSQL prints them, microseconds included. */
  async function storedTimes(id: string) {
    const result: unknown = await t.database.db.execute(sql`select created_at::text as created, updated_at::text as updated from products where id = ${id}`);
    return z.object({ rows: z.array(z.object({ created: z.string(), updated: z.string() })) }).parse(result).rows;
  }

  it('restores a deleted product with the very instants it had, to the microsecond', async () => {
    const product = await createProduct(t);
    const before = await storedTimes(product.id);
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    expect((await revert(await latestEntryId({ tool: 'products.delete', targetId: product.id }))).status).toBe(200);
    expect(await storedTimes(product.id)).toEqual(before);
  });
});
