import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/access/api-keys.ts';
import { auditEntries, orderItems, orders } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCategory, createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';

let t: TestApp;
let last = 0;
/** Strictly increasing, so "newest first" and `since` never meet two entries stamped the same millisecond. */
const clock = () => {
  last = Math.max(Date.now(), last + 1);
  return new Date(last);
};
beforeAll(async () => { t = await createTestApp({ clock }); });
afterAll(async () => { await t?.close(); });

type Entry = {
  id: string; at: string; tool: string; targetType: string; targetId: string;
  actor: { kind: string; keyId: string | null; name: string }; channel: string;
  before: Record<string, unknown> | null; after: Record<string, unknown> | null;
  revertedBy: string | null; revertOf: string | null;
};

async function entries(filter: Record<string, unknown>): Promise<Entry[]> {
  const listed = await t.call('audit.list', filter, master);
  expect(listed.status).toBe(200);
  return listed.body.result;
}

async function latestEntry(tool: string, targetId: string): Promise<Entry> {
  const [entry] = await entries({ tool, targetId, limit: 1 });
  if (!entry) throw new Error(`no ${tool} entry for ${targetId}`);
  return entry;
}

const revert = (entryId: string, key = master.key) => t.call('audit.revert', { entryId }, { key });

async function insertOrder(productId?: string) {
  const [order] = await t.database.db.insert(orders).values({
    email: 'kunde@example.dk', status: 'paid', shippingName: 'Kunde', shippingAddress: 'Vej 1', shippingZip: '1000',
    shippingCity: 'København', subtotalDkk: 10000, shippingDkk: 4900, discountDkk: 0, totalDkk: 14900, channel: 'api',
  }).returning();
  if (!order) throw new Error('order insert failed');
  if (productId) {
    await t.database.db.insert(orderItems).values({ orderId: order.id, productId, productName: 'x', unitPriceDkk: 10000, quantity: 1 });
  }
  return order;
}

describe('audit.revert on products and categories', () => {
  it('undeletes a soft-deleted product so products.get and products.search find it again', async () => {
    const product = await createProduct(t, { name: 'Zyxwabbit Round' });
    expect((await t.call('products.delete', { slug: product.slug, confirm: true }, master)).status).toBe(200);
    expect((await t.call('products.get', { slug: product.slug })).status).toBe(404);

    const deleted = await latestEntry('products.delete', product.id);
    const reverted = await revert(deleted.id);
    expect(reverted.status).toBe(200);
    expect(reverted.body.result).toEqual({ revertedEntryId: deleted.id, entryId: expect.any(String) });

    const got = await t.call('products.get', { slug: product.slug });
    expect(got.status).toBe(200);
    expect(got.body.result).toMatchObject({ id: product.id, name: 'Zyxwabbit Round', priceDkk: 129900 });
    const found = await t.call('products.search', { q: 'Zyxwabbit' });
    expect(found.body.result.map((p: { slug: string }) => p.slug)).toContain(product.slug);
  });

  it('restores the name and price of an updated product', async () => {
    const product = await createProduct(t, { name: 'Before Name', priceDkk: 100000 });
    await t.call('products.update', { slug: product.slug, patch: { name: 'After Name', priceDkk: 50000 } }, master);
    const reverted = await revert((await latestEntry('products.update', product.id)).id);
    expect(reverted.status).toBe(200);
    const got = await t.call('products.get', { slug: product.slug });
    expect(got.body.result).toMatchObject({ name: 'Before Name', priceDkk: 100000 });
  });

  it('records the revert as an entry of its own and marks the reverted entry', async () => {
    const product = await createProduct(t, { priceDkk: 100000 });
    await t.call('products.update', { slug: product.slug, patch: { priceDkk: 90000 } }, master);
    const updated = await latestEntry('products.update', product.id);
    const reverted = await revert(updated.id);

    const [revertEntry, original] = await entries({ targetId: product.id, limit: 2 });
    expect(revertEntry).toMatchObject({
      id: reverted.body.result.entryId, tool: 'audit.revert', targetType: 'product', targetId: product.id,
      revertOf: updated.id, revertedBy: null, channel: 'rest', actor: { kind: 'master', keyId: null, name: 'master' },
    });
    expect(revertEntry?.before).toMatchObject({ priceDkk: 90000 });
    expect(revertEntry?.after).toMatchObject({ priceDkk: 100000, updatedAt: updated.before?.updatedAt });
    expect(original).toMatchObject({ id: updated.id, revertedBy: reverted.body.result.entryId });
  });

  it('restores the name and description of a category changed by categories.upsert', async () => {
    const slug = uniqueSlug('cat');
    const created = await t.call('categories.upsert', { slug, name: 'Sportsbriller', description: 'Til løb' }, master);
    await t.call('categories.upsert', { slug, name: 'Sport', description: 'Til alt' }, master);
    const upserts = await entries({ tool: 'categories.upsert', targetId: created.body.result.id });
    expect(upserts).toHaveLength(2);
    expect((await revert(upserts[0]?.id ?? '')).status).toBe(200);
    const listed = await t.call('categories.list', {});
    expect(listed.body.result.find((c: { slug: string }) => c.slug === slug))
      .toMatchObject({ name: 'Sportsbriller', description: 'Til løb' });
  });

  it('refuses to undelete a product whose category was deleted since, until the category is back', async () => {
    const category = await createCategory(t);
    const product = await createProduct(t, { categorySlug: category.slug });
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    expect((await t.call('categories.delete', { slug: category.slug, confirm: true }, master)).status).toBe(200);
    const deleted = await latestEntry('products.delete', product.id);

    const refused = await revert(deleted.id);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('not_revertible');
    expect(refused.body.detail).toContain(`its category ${category.id} has been deleted since`);

    await t.call('categories.upsert', { slug: category.slug, name: 'Tilbage' }, master);
    expect((await revert(deleted.id)).status).toBe(200);
    expect((await t.call('products.get', { slug: product.slug })).body.result.category).toMatchObject({ slug: category.slug });
  });

  it('removes a product its entry created, so the slug is free again', async () => {
    const product = await createProduct(t);
    expect((await revert((await latestEntry('products.create', product.id)).id)).status).toBe(200);
    expect((await t.call('products.get', { slug: product.slug })).status).toBe(404);
    expect((await t.call('products.create', product.body, master)).status).toBe(200);
  });

  it('refuses to un-create a product that an order line references', async () => {
    const product = await createProduct(t);
    await insertOrder(product.id);
    const refused = await revert((await latestEntry('products.create', product.id)).id);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('not_revertible');
    expect(refused.body.detail).toContain('products.delete instead');
    expect((await t.call('products.get', { slug: product.slug })).status).toBe(200);
  });

  it('refuses to un-create a category that has products', async () => {
    const category = await createCategory(t);
    await createProduct(t, { categorySlug: category.slug });
    const refused = await revert((await latestEntry('categories.upsert', category.id)).id);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('not_revertible');
  });
});

describe('audit.revert refusals', () => {
  it('refuses a second revert of the same entry with 422 not_revertible', async () => {
    const product = await createProduct(t);
    await t.call('products.update', { slug: product.slug, patch: { stock: 3 } }, master);
    const updated = await latestEntry('products.update', product.id);
    const first = await revert(updated.id);
    expect(first.status).toBe(200);
    const second = await revert(updated.id);
    expect(second.status).toBe(422);
    expect(second.body.code).toBe('not_revertible');
    expect(second.body.detail).toContain(`already reverted by entry ${first.body.result.entryId}`);
    expect(second.body.detail).toContain('use products.update');
  });

  it('names the deleting tool, not an edit tool, when a revert of a delete is repeated', async () => {
    const product = await createProduct(t);
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    const deleted = await latestEntry('products.delete', product.id);
    expect((await revert(deleted.id)).status).toBe(200);
    const second = await revert(deleted.id);
    expect(second.body.code).toBe('not_revertible');
    expect(second.body.detail).toContain('To make the change again, use products.delete.');
  });

  it('refuses to revert an entry that records a revert', async () => {
    const product = await createProduct(t);
    await t.call('products.update', { slug: product.slug, patch: { stock: 4 } }, master);
    const reverted = await revert((await latestEntry('products.update', product.id)).id);
    const refused = await revert(reverted.body.result.entryId);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('not_revertible');
  });

  it('refuses an entry whose target changed since, naming the changed fields, until the newer entry is reverted', async () => {
    const product = await createProduct(t, { priceDkk: 100000 });
    await t.call('products.update', { slug: product.slug, patch: { priceDkk: 90000 } }, master);
    await t.call('products.update', { slug: product.slug, patch: { name: 'Newer' } }, master);
    const [newer, older] = await entries({ tool: 'products.update', targetId: product.id });
    if (!newer || !older) throw new Error('expected two update entries');

    const refused = await revert(older.id);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('not_revertible');
    expect(refused.body.detail).toMatch(/has changed since entry .* \(fields: name, updatedAt\)/);
    expect(refused.body.detail).toContain(`audit.list with targetId "${product.id}"`);

    expect((await revert(newer.id)).status).toBe(200);
    expect((await revert(older.id)).status).toBe(200);
    const got = await t.call('products.get', { slug: product.slug });
    expect(got.body.result).toMatchObject({ name: 'Aviator Classic', priceDkk: 100000 });
  });

  it('refuses an order status entry with 422 not_revertible and points at orders.update_status', async () => {
    const order = await insertOrder();
    const [entry] = await t.database.db.insert(auditEntries).values({
      actorKind: 'master', actorName: 'master', channel: 'rest', tool: 'orders.update_status',
      targetType: 'order', targetId: order.id, before: { ...order, status: 'pending' }, after: order,
    }).returning();
    const refused = await revert(entry?.id ?? '');
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('not_revertible');
    expect(refused.body.detail).toContain('orders.update_status');
    const [stored] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(stored?.status).toBe('paid');
  });

  it('answers 404 not_found for an unknown entry', async () => {
    const response = await revert('no-such-entry');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('not_found');
    expect(response.body.detail).toContain('audit.list');
  });
});

describe('audit.list', () => {
  it('lists entries newest first and filters by tool, targetId, since and limit', async () => {
    const product = await createProduct(t);
    for (const stock of [1, 2, 3]) {
      await t.call('products.update', { slug: product.slug, patch: { stock } }, master);
    }
    const all = await entries({ targetId: product.id });
    expect(all.map((e) => e.tool)).toEqual(['products.update', 'products.update', 'products.update', 'products.create']);
    expect(all.map((e) => e.after?.stock)).toEqual([3, 2, 1, 10]);
    expect([...all].sort((a, b) => b.at.localeCompare(a.at))).toEqual(all);

    expect(await entries({ targetId: product.id, tool: 'products.create' })).toEqual([all[3]]);
    expect(await entries({ targetId: product.id, since: all[1]?.at })).toEqual(all.slice(0, 2));
    expect(await entries({ targetId: product.id, limit: 1 })).toEqual([all[0]]);
    expect(await entries({ tool: 'no.such_tool' })).toEqual([]);

    const recent = await entries({});
    expect(recent.length).toBeLessThanOrEqual(50);
    expect(recent[0]?.targetId).toBe(product.id);
  });

  it('filters by targetSlug, a deleted product included, and by discount code', async () => {
    const product = await createProduct(t);
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    const bySlug = await entries({ targetSlug: product.slug });
    expect(bySlug.map((e) => e.tool)).toEqual(['products.delete', 'products.create']);
    expect(bySlug.every((e) => e.targetId === product.id)).toBe(true);
    expect(await entries({ targetSlug: product.slug, tool: 'products.create' })).toEqual([bySlug[1]]);
    expect(await entries({ targetSlug: 'ingen-saadan-slug' })).toEqual([]);

    const code = uniqueSlug('kode').toUpperCase();
    await t.call('discounts.create', { code, type: 'percent', value: 10 }, master);
    const byCode = await entries({ targetSlug: code.toLowerCase() });
    expect(byCode.map((e) => [e.tool, e.targetType])).toEqual([['discounts.create', 'discount']]);
  });

  it('records actor, channel and tool of every audited write', async () => {
    const created = await createKey(t.database.db, { name: 'catalog-agent', scopes: ['products:write', 'categories:write'] }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() });
    const category = await createCategory(t);
    const product = await t.call('products.create', {
      slug: uniqueSlug('p'), name: 'Agent Made', description: 'Made by an agent key.', priceDkk: 1000, stock: 1,
      categorySlug: category.slug,
    }, { key: created.key });
    const [byKey] = await entries({ targetId: product.body.result.id });
    expect(byKey).toMatchObject({
      tool: 'products.create', channel: 'rest', targetType: 'product', before: null,
      actor: { kind: 'key', keyId: created.id, name: 'catalog-agent' },
    });
    const [byMaster] = await entries({ targetId: category.id });
    expect(byMaster).toMatchObject({
      tool: 'categories.upsert', channel: 'rest', targetType: 'category',
      actor: { kind: 'master', keyId: null, name: 'master' },
    });
  });

  it('rejects a limit outside 1..200 and a since that is not a UTC timestamp with 400', async () => {
    for (const body of [{ limit: 0 }, { limit: 201 }, { since: 'yesterday' }, { since: '2026-01-01T00:00:00+01:00' }]) {
      const response = await t.call('audit.list', body, master);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_failed');
    }
  });
});

describe('audit scopes', () => {
  it('answers 401 to anonymous callers of audit.list and audit.revert', async () => {
    expect((await t.call('audit.list', {})).status).toBe(401);
    expect((await t.call('audit.revert', { entryId: 'x' })).status).toBe(401);
  });

  it('separates audit:read from audit:revert', async () => {
    const product = await createProduct(t);
    const entry = await latestEntry('products.create', product.id);
    const reader = await t.keyWith('audit:read');
    // Reverting products.create also needs the scope that products.create needs (revert-rights.test.ts).
    const reverter = await t.keyWith('audit:revert', 'products:write');

    expect((await t.call('audit.list', {}, { key: reader })).status).toBe(200);
    const cannotRevert = await revert(entry.id, reader);
    expect(cannotRevert.status).toBe(403);
    expect(cannotRevert.body.code).toBe('insufficient_scope');
    expect(cannotRevert.headers['www-authenticate']).toContain('scope="audit:revert"');

    const cannotList = await t.call('audit.list', {}, { key: reverter });
    expect(cannotList.status).toBe(403);
    expect((await revert(entry.id, reverter)).status).toBe(200);
  });
});
