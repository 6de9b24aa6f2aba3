import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCategory, createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';
import { expectProblem, expectValidation } from '../helpers/http.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

type Listed = { id: string; slug: string; name: string; description: string | null; productCount: number };

async function list(body: Record<string, unknown> = {}): Promise<Listed[]> {
  const response = await t.call('categories.list', body);
  expect(response.status).toBe(200);
  return response.body.result;
}

async function listed(slug: string, body: Record<string, unknown> = {}): Promise<Listed | undefined> {
  return (await list(body)).find((category) => category.slug === slug);
}

describe('categories.list', () => {
  it('returns exactly id, slug, name, description and productCount, ordered by name', async () => {
    await createCategory(t, uniqueSlug('zz'), 'Zz sidst');
    await createCategory(t, uniqueSlug('aa'), 'Aa først');
    const result = await list();
    for (const category of result) {
      expect(Object.keys(category).sort()).toEqual(['description', 'id', 'name', 'productCount', 'slug']);
    }
    const names = result.map((category) => category.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('counts only products that are not deleted', async () => {
    const category = await createCategory(t);
    const kept = await createProduct(t, { categorySlug: category.slug });
    const gone = await createProduct(t, { categorySlug: category.slug });
    await t.call('products.delete', { slug: gone.slug, confirm: true }, master);
    expect(await listed(category.slug)).toEqual({
      id: category.id, slug: category.slug, name: category.name, description: null, productCount: 1,
    });
    expect(kept.id).toBeTruthy();
  });

  it('leaves out empty categories, and those with only deleted products, when includeEmpty is false', async () => {
    const empty = await createCategory(t);
    const emptied = await createCategory(t);
    const full = await createCategory(t);
    const product = await createProduct(t, { categorySlug: emptied.slug });
    await createProduct(t, { categorySlug: full.slug });
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    const slugs = (await list({ includeEmpty: false })).map((category) => category.slug);
    expect(slugs).toContain(full.slug);
    expect(slugs).not.toContain(empty.slug);
    expect(slugs).not.toContain(emptied.slug);
    for (const category of await list({ includeEmpty: false })) expect(category.productCount).toBeGreaterThan(0);
    expect((await listed(empty.slug))?.productCount).toBe(0);
    expect((await listed(empty.slug, { includeEmpty: true }))?.productCount).toBe(0);
  });

  it('rejects a non-boolean includeEmpty and unknown fields', async () => {
    expectValidation(await t.call('categories.list', { includeEmpty: 'false' }), ['includeEmpty']);
    expectValidation(await t.call('categories.list', { all: true }), ['all']);
  });
});

describe('categories.upsert', () => {
  it('creates a category and answers exactly {id, slug, name}', async () => {
    const slug = uniqueSlug('new');
    const response = await t.call('categories.upsert', { slug, name: 'Nyt', description: 'Første beskrivelse.' }, master);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.result).sort()).toEqual(['id', 'name', 'slug']);
    expect(response.body.result).toMatchObject({ slug, name: 'Nyt' });
    expect(await listed(slug)).toMatchObject({ id: response.body.result.id, description: 'Første beskrivelse.' });
  });

  it('updates name and description of an existing slug, keeping the id', async () => {
    const category = await createCategory(t);
    const response = await t.call('categories.upsert', { slug: category.slug, name: 'Omdøbt', description: 'Ny.' }, master);
    expect(response.body.result).toEqual({ id: category.id, slug: category.slug, name: 'Omdøbt' });
    expect(await listed(category.slug)).toMatchObject({ name: 'Omdøbt', description: 'Ny.' });
  });

  it('leaves the description unchanged when it is omitted', async () => {
    const slug = uniqueSlug('keep');
    await t.call('categories.upsert', { slug, name: 'Før', description: 'Bliver stående.' }, master);
    await t.call('categories.upsert', { slug, name: 'Efter' }, master);
    expect(await listed(slug)).toMatchObject({ name: 'Efter', description: 'Bliver stående.' });
  });

  it('applies the slug and name rules of categories', async () => {
    for (const slug of ['a', 'Upper-case', 'has space', 'æøå', 'under_score']) {
      expectValidation(await t.call('categories.upsert', { slug, name: 'Navn' }, master), ['slug']);
    }
    expectValidation(await t.call('categories.upsert', { slug: uniqueSlug('n'), name: 'N' }, master), ['name']);
    expectValidation(await t.call('categories.upsert', { name: 'Navn' }, master), ['slug']);
    expect((await t.call('categories.upsert', { slug: 'ab', name: 'Nm' }, master)).status).toBe(200);
  });
});

describe('categories.delete', () => {
  it('refuses a category that still has products with 422 category_not_empty', async () => {
    const category = await createCategory(t);
    await createProduct(t, { categorySlug: category.slug });
    const response = await t.call('categories.delete', { slug: category.slug, confirm: true }, master);
    expectProblem(response, 422, 'category_not_empty');
    expect(response.body.detail).toContain(category.slug);
    expect(await listed(category.slug)).toBeDefined();
  });

  it('deletes an empty category: exactly {ok: true, slug}, then it is gone from the list', async () => {
    const category = await createCategory(t);
    const response = await t.call('categories.delete', { slug: category.slug, confirm: true }, master);
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ ok: true, slug: category.slug });
    expect(await listed(category.slug)).toBeUndefined();
    expectProblem(await t.call('categories.delete', { slug: category.slug, confirm: true }, master), 404, 'not_found');
    expectProblem(await t.call('products.create', {
      slug: uniqueSlug('p'), name: 'Orphan', description: 'Has nowhere to go.', priceDkk: 100, stock: 1, categorySlug: category.slug,
    }, master), 404, 'not_found');
  });

  it('deletes a category whose products are all deleted', async () => {
    const category = await createCategory(t);
    const product = await createProduct(t, { categorySlug: category.slug });
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    expect((await t.call('categories.delete', { slug: category.slug, confirm: true }, master)).status).toBe(200);
  });

  it('requires confirm: true', async () => {
    const category = await createCategory(t);
    for (const confirm of [false, 'true', 1]) {
      expectValidation(await t.call('categories.delete', { slug: category.slug, confirm }, master), ['confirm']);
    }
    expectValidation(await t.call('categories.delete', { slug: category.slug }, master), ['confirm']);
    expect(await listed(category.slug)).toBeDefined();
  });

  it('answers an unknown category with 404 not_found', async () => {
    expectProblem(await t.call('categories.delete', { slug: 'never-existed', confirm: true }, master), 404, 'not_found');
  });

  it('lets upsert bring a deleted slug back', async () => {
    const category = await createCategory(t);
    await t.call('categories.delete', { slug: category.slug, confirm: true }, master);
    const response = await t.call('categories.upsert', { slug: category.slug, name: 'Tilbage' }, master);
    expect(response.status).toBe(200);
    expect((await listed(category.slug))?.name).toBe('Tilbage');
  });
});

describe('concurrency', () => {
  it('never leaves a product in a deleted category when products.create races categories.delete', async () => {
    const rounds = await Promise.all(Array.from({ length: 8 }, async () => {
      const category = await createCategory(t);
      const [created, deleted] = await Promise.all([
        t.call('products.create', {
          slug: uniqueSlug('race'), name: 'Racer', description: 'Created while its category goes away.',
          priceDkk: 100, stock: 1, categorySlug: category.slug,
        }, master),
        t.call('categories.delete', { slug: category.slug, confirm: true }, master),
      ]);
      return { category, created: created.status, deleted: deleted.status, deleteCode: deleted.body.code, createCode: created.body.code };
    }));
    for (const round of rounds) {
      // Exactly one of the two wins: either the product exists and the delete was refused, or the other way round.
      const outcome = `${round.created}/${round.deleted}`;
      expect(['200/422', '404/200'], JSON.stringify(round)).toContain(outcome);
      if (round.created === 200) expect(round.deleteCode).toBe('category_not_empty');
      else expect(round.createCode).toBe('not_found');
    }
  });
});
