import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/db/schema.ts';
import { findActiveAnnouncement } from '../../src/shop/announcements.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';

let t: TestApp;
let marketingKey: string;
beforeAll(async () => {
  t = await createTestApp();
  marketingKey = await t.keyWith('marketing:write');
});
afterAll(async () => { await t?.close(); });

async function latestAudit(targetType: string, targetId?: string) {
  const [entry] = await t.database.db.select().from(auditEntries)
    .where(and(eq(auditEntries.targetType, targetType), targetId !== undefined ? eq(auditEntries.targetId, targetId) : undefined))
    .orderBy(desc(auditEntries.at), desc(auditEntries.id)).limit(1);
  if (!entry) throw new Error(`no ${targetType} audit entry`);
  return entry;
}

describe('the announcement banner', () => {
  it('reads null before a banner was ever set', async () => {
    const response = await t.call('marketing.get_announcement', {}, { key: marketingKey });
    expect(response.status).toBe(200);
    expect(response.body.result).toBeNull();
  });

  it('sets the banner, shows it on the public pages and audits the creation', async () => {
    const response = await t.call('marketing.set_announcement', {
      text: 'Fri fragt i hele december', linkUrl: '/info/fragt', linkText: 'Læs mere', active: true,
    }, { key: marketingKey });
    expect(response.status).toBe(200);
    expect(response.body.result).toMatchObject({
      text: 'Fri fragt i hele december', linkUrl: '/info/fragt', linkText: 'Læs mere',
      startsAt: null, endsAt: null, active: true, live: true,
    });
    expect(await findActiveAnnouncement(t.database.db, new Date()))
      .toEqual({ text: 'Fri fragt i hele december', linkUrl: '/info/fragt', linkText: 'Læs mere' });
    const read = await t.call('marketing.get_announcement', {}, { key: marketingKey });
    expect(read.body.result).toEqual(response.body.result);
    const entry = await latestAudit('announcement');
    expect(entry).toMatchObject({ tool: 'marketing.set_announcement', targetId: response.body.result.id, before: null });
  });

  it('replaces the one banner in place; fields left out are cleared', async () => {
    const first = await t.call('marketing.get_announcement', {}, master);
    const response = await t.call('marketing.set_announcement', {
      text: 'Udsalg', linkUrl: 'https://butik.test/udsalg', startsAt: '2020-01-01T00:00:00Z', endsAt: '2099-01-01T00:00:00Z', active: true,
    }, { key: marketingKey });
    expect(response.body.result).toMatchObject({
      id: first.body.result.id, text: 'Udsalg', linkUrl: 'https://butik.test/udsalg', linkText: null,
      startsAt: '2020-01-01T00:00:00.000Z', endsAt: '2099-01-01T00:00:00.000Z', live: true,
    });
    const entry = await latestAudit('announcement');
    expect(entry.before).toMatchObject({ text: 'Fri fragt i hele december' });
    expect(entry.after).toMatchObject({ text: 'Udsalg' });
  });

  it('keeps a banner scheduled for later off the pages (live: false)', async () => {
    const response = await t.call('marketing.set_announcement', {
      text: 'Snart: vinterudsalg', startsAt: '2099-01-01T00:00:00Z', active: true,
    }, { key: marketingKey });
    expect(response.body.result).toMatchObject({ active: true, live: false });
    expect(await findActiveAnnouncement(t.database.db, new Date())).toBeUndefined();
  });

  it('clears the banner, and reports cleared: false when there is nothing to clear', async () => {
    await t.call('marketing.set_announcement', { text: 'Black Friday', active: true }, { key: marketingKey });
    const cleared = await t.call('marketing.clear_announcement', { confirm: true }, { key: marketingKey });
    expect(cleared.status).toBe(200);
    expect(cleared.body.result).toEqual({ ok: true, cleared: true });
    expect(await findActiveAnnouncement(t.database.db, new Date())).toBeUndefined();
    const read = await t.call('marketing.get_announcement', {}, { key: marketingKey });
    expect(read.body.result).toMatchObject({ text: 'Black Friday', active: false, live: false });
    const again = await t.call('marketing.clear_announcement', { confirm: true }, { key: marketingKey });
    expect(again.body.result).toEqual({ ok: true, cleared: false });
  });

  it('brings a cleared banner back with audit.revert', async () => {
    await t.call('marketing.set_announcement', { text: 'Tilbage igen', active: true }, { key: marketingKey });
    await t.call('marketing.clear_announcement', { confirm: true }, { key: marketingKey });
    const entry = await latestAudit('announcement');
    expect(entry.tool).toBe('marketing.clear_announcement');
    const reverted = await t.call('audit.revert', { entryId: entry.id }, master);
    expect(reverted.status).toBe(200);
    expect(await findActiveAnnouncement(t.database.db, new Date())).toMatchObject({ text: 'Tilbage igen' });
  });

  it.each([
    ['an empty text', { text: ' ', active: true }],
    ['a text over 280 characters', { text: 'x'.repeat(281), active: true }],
    ['a missing active', { text: 'Hej' }],
    ['a javascript: link', { text: 'Hej', linkUrl: 'javascript:alert(1)', active: true }],
    ['a protocol-relative link', { text: 'Hej', linkUrl: '//evil.test/x', active: true }],
    ['a link without a leading slash', { text: 'Hej', linkUrl: 'info/fragt', active: true }],
    ['linkText without linkUrl', { text: 'Hej', linkText: 'Læs mere', active: true }],
    ['endsAt before startsAt', { text: 'Hej', startsAt: '2026-02-01T00:00:00Z', endsAt: '2026-01-01T00:00:00Z', active: true }],
    ['endsAt equal to startsAt', { text: 'Hej', startsAt: '2026-02-01T00:00:00Z', endsAt: '2026-02-01T00:00:00Z', active: true }],
    ['a startsAt that is not a timestamp', { text: 'Hej', startsAt: 'tomorrow', active: true }],
    ['an unknown field', { text: 'Hej', active: true, color: 'red' }],
  ])('rejects %s with 400 validation_failed', async (_name, body) => {
    const response = await t.call('marketing.set_announcement', body, { key: marketingKey });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
  });

  it('rejects clear_announcement without confirm: true', async () => {
    for (const body of [{}, { confirm: false }]) {
      const response = await t.call('marketing.clear_announcement', body, { key: marketingKey });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_failed');
    }
  });

  it('answers 401 anonymously and 403 insufficient_scope to keys without marketing:write', async () => {
    const reader = await t.keyWith('settings:read', 'catalog:read');
    for (const [tool, body] of [
      ['marketing.get_announcement', {}],
      ['marketing.set_announcement', { text: 'Hej', active: true }],
      ['marketing.clear_announcement', { confirm: true }],
    ] as const) {
      expect((await t.call(tool, body)).status).toBe(401);
      const response = await t.call(tool, body, { key: reader });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('insufficient_scope');
    }
  });
});

describe('product answer-engine content', () => {
  const content = {
    answerSummary: 'Klassisk pilotbrille i tyndt metal med UV400-glas.',
    faq: [{ q: 'Er glassene polariserede?', a: 'Nej, men de blokerer 100 % UV.' }],
    useCases: [{ title: 'Bilkørsel', description: 'Dæmper blænding uden at farve trafiklys.' }],
    comparisonFacts: { 'UV-beskyttelse': 'UV400', Vægt: '28 g' },
  };

  it('updates only the content fields, keeps products.get as it was, and reads them back', async () => {
    const product = await createProduct(t, { name: 'Aviator Classic', priceDkk: 129900, stock: 7 });
    const before = await t.call('products.get', { slug: product.slug });
    const response = await t.call('marketing.update_product_content', { slug: product.slug, ...content }, { key: marketingKey });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ slug: product.slug, ...content });

    const read = await t.call('marketing.get_product_content', { slug: product.slug }, { key: await t.keyWith('catalog:read') });
    expect(read.body.result).toEqual({ slug: product.slug, ...content });
    const after = await t.call('products.get', { slug: product.slug });
    expect(after.body.result).toEqual(before.body.result);
  });

  it('replaces a given field whole, leaves the others, and removes the summary with null', async () => {
    const product = await createProduct(t, content);
    const response = await t.call('marketing.update_product_content', {
      slug: product.slug, answerSummary: null, faq: [],
    }, { key: marketingKey });
    expect(response.body.result).toEqual({
      slug: product.slug, answerSummary: null, faq: [], useCases: content.useCases, comparisonFacts: content.comparisonFacts,
    });
  });

  it('audits a full product snapshot that audit.revert restores', async () => {
    const product = await createProduct(t, content);
    await t.call('marketing.update_product_content', { slug: product.slug, useCases: [] }, { key: marketingKey });
    const entry = await latestAudit('product', product.id);
    expect(entry.tool).toBe('marketing.update_product_content');
    expect(entry.before).toMatchObject({ slug: product.slug, priceDkk: 129900, useCases: content.useCases });
    expect(entry.after).toMatchObject({ slug: product.slug, priceDkk: 129900, useCases: [] });
    const reverted = await t.call('audit.revert', { entryId: entry.id }, master);
    expect(reverted.status).toBe(200);
    const read = await t.call('marketing.get_product_content', { slug: product.slug }, master);
    expect(read.body.result.useCases).toEqual(content.useCases);
  });

  it('answers 404 not_found for an unknown or deleted product', async () => {
    const product = await createProduct(t);
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    for (const slug of [product.slug, 'no-such-product']) {
      const read = await t.call('marketing.get_product_content', { slug }, master);
      expect(read.status).toBe(404);
      expect(read.body.code).toBe('not_found');
      const write = await t.call('marketing.update_product_content', { slug, faq: [] }, { key: marketingKey });
      expect(write.status).toBe(404);
    }
  });

  it.each([
    ['no content field', { slug: 'aviator' }],
    ['a summary over 500 characters', { slug: 'aviator', answerSummary: 'x'.repeat(501) }],
    ['a faq entry without an answer', { slug: 'aviator', faq: [{ q: 'Hvorfor?', a: '' }] }],
    ['a faq entry with an extra field', { slug: 'aviator', faq: [{ q: 'Hvorfor?', a: 'Derfor.', x: 1 }] }],
    ['a use case without a title', { slug: 'aviator', useCases: [{ description: 'Til stranden.' }] }],
    ['a comparison fact that is not a string', { slug: 'aviator', comparisonFacts: { Vægt: 28 } }],
    ['a field outside the content', { slug: 'aviator', priceDkk: 100 }],
  ])('rejects %s with 400 validation_failed', async (_name, body) => {
    const response = await t.call('marketing.update_product_content', body, { key: marketingKey });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
  });

  it('needs marketing:write to write and catalog:read (with a key) to read', async () => {
    const product = await createProduct(t);
    const writer = await t.call('marketing.update_product_content', { slug: product.slug, faq: [] }, {
      key: await t.keyWith('products:write', 'catalog:read'),
    });
    expect(writer.status).toBe(403);
    expect(writer.body.code).toBe('insufficient_scope');
    const reader = await t.call('marketing.get_product_content', { slug: product.slug }, { key: marketingKey });
    expect(reader.status).toBe(403);
    expect((await t.call('marketing.get_product_content', { slug: product.slug })).status).toBe(401);
    expect((await t.call('marketing.update_product_content', { slug: product.slug, faq: [] })).status).toBe(401);
  });
});
