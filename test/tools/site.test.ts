import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master, uniqueSlug } from '../helpers/fixtures.ts';

let t: TestApp;
let published: string;
let draft: string;

beforeAll(async () => {
  t = await createTestApp();
  published = uniqueSlug('side');
  draft = uniqueSlug('kladde');
  await t.call('pages.upsert', { slug: published, title: 'Levering', body: '## Levering\n\nVi sender samme dag.' }, master);
  await t.call('pages.upsert', { slug: draft, title: 'Kladde', body: 'Ikke offentlig endnu.', status: 'draft' }, master);
});
afterAll(async () => { await t?.close(); });

describe('site.list_pages', () => {
  it('lists published pages anonymously with exactly slug, title, url and updatedAt', async () => {
    const response = await t.call('site.list_pages', {});
    expect(response.status).toBe(200);
    expect(response.body.result).toContainEqual({
      slug: published, title: 'Levering', url: `${BASE_URL}/info/${published}`, updatedAt: expect.stringMatching(/Z$/),
    });
  });

  it('leaves drafts out', async () => {
    const response = await t.call('site.list_pages', {});
    expect(response.body.result.map((page: { slug: string }) => page.slug)).not.toContain(draft);
  });

  it('rejects parameters it does not know', async () => {
    const response = await t.call('site.list_pages', { status: 'draft' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
  });
});

describe('site.get_page', () => {
  it('returns a published page anonymously', async () => {
    const response = await t.call('site.get_page', { slug: published });
    expect(response.body.result).toEqual({
      slug: published, title: 'Levering', body: '## Levering\n\nVi sender samme dag.', url: `${BASE_URL}/info/${published}`,
      updatedAt: expect.stringMatching(/Z$/),
    });
  });

  it('answers 404 not_found for a draft, even to the master key', async () => {
    for (const options of [{}, master]) {
      const response = await t.call('site.get_page', { slug: draft }, options);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('not_found');
    }
  });

  it('answers 404 not_found for a missing page', async () => {
    const response = await t.call('site.get_page', { slug: 'findes-ikke' });
    expect(response.status).toBe(404);
  });

  it('lets a key without pages:read call it (CONTRACT §11) but not an invalid key', async () => {
    const key = await t.keyWith('orders:read');
    expect((await t.call('site.get_page', { slug: published }, { key })).status).toBe(200);
    const invalid = await t.call('site.get_page', { slug: published }, { key: 'bk_invalid' });
    expect(invalid.status).toBe(401);
  });

  it('shows a page once it is published and hides it again as a draft', async () => {
    const slug = uniqueSlug('skift');
    await t.call('pages.upsert', { slug, title: 'Skift', body: 'Tekst der skifter.', status: 'draft' }, master);
    expect((await t.call('site.get_page', { slug })).status).toBe(404);
    await t.call('pages.upsert', { slug, title: 'Skift', body: 'Tekst der skifter.', status: 'published' }, master);
    expect((await t.call('site.get_page', { slug })).status).toBe(200);
  });

  it('requires slug', async () => {
    const response = await t.call('site.get_page', {});
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('slug');
  });
});
