import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCategory, createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';
import { expectProblem, expectValidation } from '../helpers/http.ts';

let t: TestApp;
let categorySlug: string;
beforeAll(async () => {
  t = await createTestApp();
  categorySlug = (await createCategory(t)).slug;
});
afterAll(async () => { await t?.close(); });

/** A complete, valid products.create body; each test changes one field. */
function newProduct(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    slug: uniqueSlug('p'), name: 'Aviator Classic', description: 'A classic pilot frame.', priceDkk: 129900, stock: 10,
    categorySlug, ...fields,
  };
}

const create = (fields: Record<string, unknown>) => t.call('products.create', newProduct(fields), master);

describe('products', () => {
  it('creates a product and reads it back anonymously by slug', async () => {
    const created = await createProduct(t, { name: 'Wayfarer Sort', brand: 'Ray-Ban', images: ['https://img.test/a.jpg'] });
    const got = await t.call('products.get', { slug: created.slug });
    expect(got.status).toBe(200);
    expect(got.body.result).toMatchObject({
      id: created.id, slug: created.slug, name: 'Wayfarer Sort', brand: 'Ray-Ban', priceDkk: 129900,
      images: ['https://img.test/a.jpg'], frameColor: null,
    });
  });

  it('finds a product by a typo in its name', async () => {
    await createProduct(t, { name: 'Havana Clubmaster' });
    const found = await t.call('products.search', { q: 'clubmastr' });
    expect(found.body.result.map((p: { name: string }) => p.name)).toContain('Havana Clubmaster');
  });

  it('rejects an anonymous create with 401 before looking at the body', async () => {
    const response = await t.call('products.create', '{not json');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('unauthorized');
    expect(response.headers['www-authenticate']).toBe('Bearer realm="butik"');
  });

  it('rejects a changed slug with 422 slug_immutable', async () => {
    const created = await createProduct(t);
    const response = await t.call('products.update', { slug: created.slug, patch: { slug: 'other-slug' } }, master);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('slug_immutable');
  });
});

describe('products.create result and read shapes', () => {
  it('answers exactly {id, slug}', async () => {
    const body = newProduct();
    const response = await t.call('products.create', body, master);
    expect(Object.keys(response.body.result).sort()).toEqual(['id', 'slug']);
    expect(response.body.result.slug).toBe(body.slug);
  });

  it('reads back every products.get field, and no other', async () => {
    const category = await createCategory(t, uniqueSlug('cat'), 'Briller');
    const created = await createProduct(t, {
      categoryId: category.id, brand: 'Lindberg', frameColor: 'guld', lensColor: 'grøn', featured: true, stock: 0,
      description: 'Rundt titaniumstel, skræddersyet.', images: ['https://img.test/1.jpg', 'http://img.test/2.jpg'],
      attributes: { material: 'titanium', weightGrams: 9, foldable: false, sizes: ['S', 'M', 1] },
      answerSummary: 'Et let stel.', faq: [{ q: 'Vægt?', a: '9 gram.' }], useCases: [{ title: 'Kontor', description: 'Hele dagen.' }],
      comparisonFacts: { vægt: '9 g' },
    });
    const got = await t.call('products.get', { slug: created.slug });
    expect(Object.keys(got.body.result).sort()).toEqual([
      'brand', 'category', 'createdAt', 'description', 'featured', 'frameColor', 'id', 'images', 'lensColor', 'name',
      'priceDkk', 'slug', 'stock',
    ]);
    expect(got.body.result).toMatchObject({
      brand: 'Lindberg', frameColor: 'guld', lensColor: 'grøn', featured: true, stock: 0,
      images: ['https://img.test/1.jpg', 'http://img.test/2.jpg'],
      category: { slug: category.slug, name: 'Briller', description: null },
    });
    expect(got.body.result.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });

  it('answers an unknown slug with 404 not_found', async () => {
    expectProblem(await t.call('products.get', { slug: 'NOT a slug at all / ../' }), 404, 'not_found');
    expectValidation(await t.call('products.get', { slug: '' }), ['slug']);
  });
});

describe('products.create bounds', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['priceDkk', { priceDkk: 0 }, { priceDkk: 1 }],
    ['priceDkk', { priceDkk: 9007199254740992 }, { priceDkk: 9007199254740991 }],
    ['priceDkk', { priceDkk: 99.5 }, { priceDkk: 100 }],
    ['stock', { stock: -1 }, { stock: 0 }],
    ['name', { name: 'A' }, { name: 'Ab' }],
    ['description', { description: '123456789' }, { description: '1234567890' }],
    ['answerSummary', { answerSummary: 'x'.repeat(501) }, { answerSummary: 'x'.repeat(500) }],
    ['brand', { brand: '' }, { brand: 'B' }],
    ['frameColor', { frameColor: '' }, { frameColor: 'r' }],
    ['lensColor', { lensColor: '' }, { lensColor: 'g' }],
    ['slug', { slug: 'a' }, { slug: `${uniqueSlug('ab')}` }],
    ['slug', { slug: 'Upper-Case' }, { slug: uniqueSlug('lower-case') }],
    ['slug', { slug: 'has space' }, { slug: uniqueSlug('has-dash') }],
    ['slug', { slug: 'blå-brille' }, { slug: uniqueSlug('blaa-brille') }],
    ['images.0', { images: ['not a url'] }, { images: ['https://img.test/x.jpg'] }],
    ['images.0', { images: ['ftp://img.test/x.jpg'] }, { images: ['http://img.test/x.jpg'] }],
    ['images', { images: 'https://img.test/x.jpg' }, { images: [] }],
    ['images.0', { images: ['https://img.test/a b.jpg'] }, { images: ['https://img.test/a%20b.jpg'] }],
    ['images.0', { images: ['https://img.test/x.jpg"onerror="alert(1)'] }, { images: ['https://img.test/x.jpg?v=1'] }],
    ['images.1', { images: ['https://img.test/x.jpg', 'https://img.test/<script>.jpg'] }, { images: ['https://img.test/%3Cscript%3E.jpg'] }],
    ['featured', { featured: 'true' }, { featured: false }],
    ['faq.0.q', { faq: [{ q: '', a: 'svar' }] }, { faq: [{ q: 'spørgsmål', a: 'svar' }] }],
    ['useCases.0.title', { useCases: [{ title: '', description: 'd' }] }, { useCases: [{ title: 't', description: 'd' }] }],
    ['attributes.size', { attributes: { size: { w: 1 } } }, { attributes: { size: [1, 'M', true] } }],
    ['comparisonFacts.vægt', { comparisonFacts: { vægt: 9 } }, { comparisonFacts: { vægt: '9 g' } }],
  ];
  for (const [path, bad, good] of cases) {
    it(`rejects ${JSON.stringify(bad).slice(0, 60)} at ${path} and accepts ${JSON.stringify(good).slice(0, 60)}`, async () => {
      expectValidation(await create(bad), [path]);
      const accepted = await create(good);
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    });
  }

  it('requires name, slug, description, priceDkk and stock', async () => {
    expectValidation(await t.call('products.create', { categorySlug }, master), ['slug', 'name', 'description', 'priceDkk', 'stock']);
  });

  it('takes exactly one of categoryId and categorySlug', async () => {
    const category = await createCategory(t);
    expectValidation(await create({ categoryId: category.id }), ['categoryId']);
    const { categorySlug: _omitted, ...neither } = newProduct();
    expectValidation(await t.call('products.create', neither, master), ['categoryId']);
    const { categorySlug: _slug, ...byId } = newProduct({ categoryId: category.id });
    expect((await t.call('products.create', byId, master)).status).toBe(200);
  });

  it('answers an unknown category, by slug or by an id that is not a UUID, with 404 not_found', async () => {
    expectProblem(await create({ categorySlug: 'no-such-category' }), 404, 'not_found');
    const { categorySlug: _omitted, ...rest } = newProduct();
    expectProblem(await t.call('products.create', { ...rest, categoryId: 'not-a-uuid' }, master), 404, 'not_found');
    expectProblem(await t.call('products.create', { ...rest, categoryId: '00000000-0000-0000-0000-000000000000' }, master), 404, 'not_found');
  });

  it('answers a slug that exists already, even soft-deleted, with 409 already_exists', async () => {
    const product = await createProduct(t);
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    expectProblem(await create({ slug: product.slug }), 409, 'already_exists');
  });
});

describe('products.update', () => {
  it('changes the patched fields only and answers exactly {id, slug}', async () => {
    const product = await createProduct(t, { brand: 'Oakley', stock: 4 });
    const response = await t.call('products.update', { slug: product.slug, patch: { priceDkk: 99900, frameColor: 'sort' } }, master);
    expect(response.body.result).toEqual({ id: product.id, slug: product.slug });
    const got = (await t.call('products.get', { slug: product.slug })).body.result;
    expect(got).toMatchObject({ priceDkk: 99900, frameColor: 'sort', brand: 'Oakley', stock: 4, name: 'Aviator Classic' });
  });

  it('moves a product to another category by slug or id', async () => {
    const product = await createProduct(t);
    const target = await createCategory(t, uniqueSlug('cat'), 'Sportsbriller');
    await t.call('products.update', { slug: product.slug, patch: { categorySlug: target.slug } }, master);
    expect((await t.call('products.get', { slug: product.slug })).body.result.category.slug).toBe(target.slug);
    expectValidation(await t.call('products.update', {
      slug: product.slug, patch: { categorySlug: target.slug, categoryId: target.id },
    }, master), ['patch.categoryId']);
    expectProblem(await t.call('products.update', { slug: product.slug, patch: { categoryId: 'nope' } }, master), 404, 'not_found');
  });

  it('applies the create rules to the patch', async () => {
    const product = await createProduct(t);
    expectValidation(await t.call('products.update', { slug: product.slug, patch: { priceDkk: 0, stock: -1 } }, master),
      ['patch.priceDkk', 'patch.stock']);
    expectValidation(await t.call('products.update', { slug: product.slug, patch: { description: 'short' } }, master), ['patch.description']);
    expectValidation(await t.call('products.update', { slug: product.slug }, master), ['patch']);
  });

  it('answers an unknown product with 404 not_found', async () => {
    expectProblem(await t.call('products.update', { slug: 'ghost', patch: { stock: 1 } }, master), 404, 'not_found');
  });
});

describe('products.delete', () => {
  it('soft-deletes: exactly {ok: true, slug}, then get, search and a second delete see nothing', async () => {
    const product = await createProduct(t, { name: 'Forsvindingsnummer' });
    const response = await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    expect(response.body.result).toEqual({ ok: true, slug: product.slug });
    expectProblem(await t.call('products.get', { slug: product.slug }), 404, 'not_found');
    expect((await t.call('products.search', { q: 'Forsvindingsnummer' })).body.result).toEqual([]);
    expectProblem(await t.call('products.delete', { slug: product.slug, confirm: true }, master), 404, 'not_found');
    expectProblem(await t.call('products.update', { slug: product.slug, patch: { stock: 1 } }, master), 404, 'not_found');
  });

  it('answers a deleted product with the audit entry whose revert restores it', async () => {
    const product = await createProduct(t, { name: 'Genopstanden' });
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    const entries = await t.call('audit.list', { targetId: product.id, tool: 'products.delete' }, master);
    const entryId = entries.body.result[0].id;
    for (const gone of [await t.call('products.get', { slug: product.slug }), await t.call('products.update', { slug: product.slug, patch: { stock: 1 } }, master)]) {
      expectProblem(gone, 404, 'not_found');
      expect(gone.body.auditEntryId).toBe(entryId);
      expect(gone.body.detail).toContain(`was deleted`);
      expect(gone.body.detail).toContain(`audit.revert with entryId "${entryId}"`);
    }
    expect((await t.call('audit.revert', { entryId }, master)).status).toBe(200);
    expect((await t.call('products.get', { slug: product.slug })).body.result.name).toBe('Genopstanden');
  });

  it('answers a slug that never existed without an audit entry', async () => {
    const response = await t.call('products.get', { slug: 'aldrig-set' });
    expectProblem(response, 404, 'not_found');
    expect(response.body.auditEntryId).toBeUndefined();
  });
});

describe('products.attach_image', () => {
  it('appends an https image, then answers alreadyAttached for the same URL', async () => {
    const product = await createProduct(t, { images: ['https://img.test/first.jpg'] });
    const url = 'https://img.test/second.jpg';
    const attached = await t.call('products.attach_image', { slug: product.slug, imageUrl: url, alt: 'Set fra siden', sourceId: 'src-1' }, master);
    expect(attached.body.result).toEqual({ ok: true, slug: product.slug, attached: url, totalImages: 2 });
    const again = await t.call('products.attach_image', { slug: product.slug, imageUrl: url }, master);
    expect(again.body.result).toEqual({ ok: true, slug: product.slug, alreadyAttached: true, totalImages: 2 });
    expect((await t.call('products.get', { slug: product.slug })).body.result.images).toEqual(['https://img.test/first.jpg', url]);
  });

  it('counts the first image of a product without images as totalImages 1', async () => {
    const product = await createProduct(t);
    const response = await t.call('products.attach_image', { slug: product.slug, imageUrl: 'https://img.test/only.jpg' }, master);
    expect(response.body.result).toEqual({ ok: true, slug: product.slug, attached: 'https://img.test/only.jpg', totalImages: 1 });
  });

  it('requires https and an alt of at most 200 characters', async () => {
    const product = await createProduct(t);
    expectValidation(await t.call('products.attach_image', { slug: product.slug, imageUrl: 'http://img.test/a.jpg' }, master), ['imageUrl']);
    expectValidation(await t.call('products.attach_image', { slug: product.slug, imageUrl: 'img.test/a.jpg' }, master), ['imageUrl']);
    expectValidation(await t.call('products.attach_image', {
      slug: product.slug, imageUrl: 'https://img.test/a.jpg', alt: 'x'.repeat(201),
    }, master), ['alt']);
    const ok = await t.call('products.attach_image', { slug: product.slug, imageUrl: 'https://img.test/a.jpg', alt: 'x'.repeat(200) }, master);
    expect(ok.status).toBe(200);
  });

  it('refuses an image URL with a quote, a space or an angle bracket and says what is accepted', async () => {
    const product = await createProduct(t);
    for (const imageUrl of ['https://img.test/a b.jpg', 'https://img.test/a.jpg"x', 'https://img.test/<a>.jpg']) {
      const refused = await t.call('products.attach_image', { slug: product.slug, imageUrl }, master);
      expectValidation(refused, ['imageUrl']);
      expect(refused.body.errors[0].message).toMatch(/absolute https URL without spaces, quotes, backslashes or angle brackets \(percent-encode them/);
    }
    expect((await t.call('products.get', { slug: product.slug })).body.result.images).toEqual([]);
  });

  it('answers an unknown product with 404 not_found', async () => {
    expectProblem(await t.call('products.attach_image', { slug: 'ghost', imageUrl: 'https://img.test/a.jpg' }, master), 404, 'not_found');
  });
});

describe('audit', () => {
  it('records every product write with before and after snapshots', async () => {
    const product = await createProduct(t);
    await t.call('products.update', { slug: product.slug, patch: { stock: 1 } }, master);
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    const entries = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetId, product.id), eq(auditEntries.targetType, 'product')));
    const byTool = Object.fromEntries(entries.map((entry) => [entry.tool, entry]));
    expect(Object.keys(byTool).sort()).toEqual(['products.create', 'products.delete', 'products.update']);
    expect(byTool['products.create']?.before).toBeNull();
    expect(byTool['products.update']?.before).toMatchObject({ stock: 10 });
    expect(byTool['products.update']?.after).toMatchObject({ stock: 1 });
    expect((byTool['products.delete']?.after as { deletedAt: unknown }).deletedAt).toBeTruthy();
    for (const entry of entries) expect(entry).toMatchObject({ actorKind: 'master', channel: 'rest' });
  });

  it('records nothing for a refused write', async () => {
    const before = (await t.database.db.select().from(auditEntries)).length;
    await create({ priceDkk: 0 });
    await t.call('products.update', { slug: 'ghost', patch: { stock: 1 } }, master);
    expect((await t.database.db.select().from(auditEntries)).length).toBe(before);
  });
});
