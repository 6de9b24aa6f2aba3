import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, services } from '../../src/db/schema.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master, uniqueSlug } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

async function create(fields: Record<string, unknown> = {}) {
  return t.call('services.create', { slug: uniqueSlug('service'), title: 'Synsprøve', body: 'Lang tekst.', ...fields }, master);
}

async function publicListing(): Promise<string> {
  const response = await t.app.inject({ url: '/services' });
  expect(response.statusCode).toBe(200);
  return response.body;
}

describe('service status', () => {
  it('creates an offering as published when status is omitted, listed on /services', async () => {
    const slug = uniqueSlug('service');
    const response = await create({ slug, title: 'Brillerens' });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ id: expect.any(String), slug, status: 'published', publicUrl: `${BASE_URL}/services/${slug}` });
    expect(await publicListing()).toContain(`href="/services/${slug}"`);
  });

  it('creates a draft with status: draft, kept off the public /services', async () => {
    const slug = uniqueSlug('service');
    const response = await create({ slug, status: 'draft' });
    expect(response.body.result.status).toBe('draft');
    expect(await publicListing()).not.toContain(slug);
    expect((await t.app.inject({ url: `/services/${slug}` })).statusCode).toBe(404);
  });

  it('moves an offering between draft and published with services.update patch.status', async () => {
    const { slug, id } = (await create({ status: 'draft' })).body.result;
    const published = await t.call('services.update', { slug, patch: { status: 'published' } }, master);
    expect(published.body.result).toEqual({ id, slug });
    expect((await t.call('services.get', { slug }, master)).body.result.status).toBe('published');
    expect(await publicListing()).toContain(`/services/${slug}"`);
    await t.call('services.update', { slug, patch: { status: 'draft' } }, master);
    expect((await t.call('services.get', { slug }, master)).body.result.status).toBe('draft');
    expect(await publicListing()).not.toContain(slug);
  });
});

describe('services.create bounds', () => {
  it.each([
    ['title', 1, 'x'],
    ['title', 201, 'x'.repeat(201)],
    ['shortDescription', 0, ''],
    ['shortDescription', 501, 'x'.repeat(501)],
    ['priceString', 0, ''],
    ['priceString', 101, 'x'.repeat(101)],
    ['body', 0, ''],
  ])('rejects %s of %i characters with 400 validation_failed', async (field, _length, value) => {
    const response = await create({ [field]: value });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors.map((e: { path: string }) => e.path)).toEqual([field]);
  });

  it.each([
    ['title', 2, 'xy'],
    ['title', 200, 'x'.repeat(200)],
    ['shortDescription', 1, 'x'],
    ['shortDescription', 500, 'x'.repeat(500)],
    ['priceString', 1, 'x'],
    ['priceString', 100, 'x'.repeat(100)],
    ['body', 1, 'x'],
  ])('accepts %s of %i characters', async (field, _length, value) => {
    const response = await create({ [field]: value });
    expect(response.status).toBe(200);
    expect((await t.call('services.get', { slug: response.body.result.slug }, master)).body.result[field]).toBe(value);
  });

  it.each([
    ['an uppercase slug', { slug: 'Synsproeve' }, 'slug'],
    ['a slug with æ', { slug: 'synsprøve' }, 'slug'],
    ['a one-character slug', { slug: 's' }, 'slug'],
    ['a javascript: hero image', { heroImage: 'javascript:alert(1)' }, 'heroImage'],
    ['an ftp hero image', { heroImage: 'ftp://img.test/a.png' }, 'heroImage'],
    ['a relative hero image', { heroImage: 'a.png' }, 'heroImage'],
    ['a hero image with a quote', { heroImage: 'https://img.test/a.png?x="onload="alert(1)' }, 'heroImage'],
    ['an empty feature', { features: [''] }, 'features.0'],
    ['a fractional navOrder', { navOrder: 1.5 }, 'navOrder'],
    ['a navOrder beyond 2^53 − 1', { navOrder: 9007199254740992 }, 'navOrder'],
    ['an unknown status', { status: 'archived' }, 'status'],
    ['an unknown field', { price: 100 }, 'price'],
  ])('rejects %s', async (_name, fields, path) => {
    const response = await create(fields);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('requires title and body', async () => {
    const response = await t.call('services.create', {}, master);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body', 'title']);
  });

  it('answers 409 already_exists for an explicit slug that exists', async () => {
    const { slug } = (await create()).body.result;
    const response = await create({ slug });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('already_exists');
  });
});

describe('generated slugs', () => {
  it('makes the slug from the title: lowercase, æ ø å spelled out, accents folded, the rest hyphens', async () => {
    const response = await t.call('services.create', { title: '  Øjenlæge & Åben Café — Prøv NU!  ', body: 'x' }, master);
    expect(response.body.result.slug).toBe('oejenlaege-aaben-cafe-proev-nu');
    expect(response.body.result.publicUrl).toBe(`${BASE_URL}/services/oejenlaege-aaben-cafe-proev-nu`);
  });

  it('adds -2, -3 … when the generated slug is taken', async () => {
    const slugs = [];
    for (let i = 0; i < 3; i += 1) {
      slugs.push((await t.call('services.create', { title: 'Glas på recept', body: 'x' }, master)).body.result.slug);
    }
    expect(slugs).toEqual(['glas-paa-recept', 'glas-paa-recept-2', 'glas-paa-recept-3']);
  });

  it('gives concurrent creates of one title distinct slugs', async () => {
    const responses = await Promise.all(Array.from({ length: 5 }, () =>
      t.call('services.create', { title: 'Samtidig Ydelse', body: 'x' }, master)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(responses.map((r) => r.body.result.slug).sort())
      .toEqual(['samtidig-ydelse', 'samtidig-ydelse-2', 'samtidig-ydelse-3', 'samtidig-ydelse-4', 'samtidig-ydelse-5']);
  });

  it('gives a title without usable characters a valid slug', async () => {
    const response = await t.call('services.create', { title: '!!', body: 'x' }, master);
    expect(response.body.result.slug).toMatch(/^service(-\d+)?$/);
  });

  it('keeps a generated slug of a 200-character title within 200 characters', async () => {
    const response = await t.call('services.create', { title: 'æ'.repeat(200), body: 'x' }, master);
    expect(response.body.result.slug.length).toBeLessThanOrEqual(200);
    expect(response.body.result.slug).toMatch(/^[a-z0-9-]+$/);
  });
});

describe('services.update', () => {
  it('changes the given fields only and keeps the slug', async () => {
    const { slug, id } = (await create({ title: 'Reparation', priceString: 'Fra 150 kr.', features: ['Hængsler'] })).body.result;
    const response = await t.call('services.update', {
      slug,
      patch: { title: 'Stelreparation', shortDescription: 'Vi lodder metalstel.', navOrder: 5, showInNav: true, heroImage: 'https://img.test/r.jpg', features: ['Stænger'], body: 'Ny tekst.' },
    }, master);
    expect(response.body.result).toEqual({ id, slug });
    const got = (await t.call('services.get', { slug }, master)).body.result;
    expect(got).toMatchObject({
      title: 'Stelreparation', shortDescription: 'Vi lodder metalstel.', priceString: 'Fra 150 kr.', navOrder: 5, showInNav: true,
      heroImage: 'https://img.test/r.jpg', features: ['Stænger'], body: 'Ny tekst.',
    });
  });

  it('rejects a changed slug with 422 slug_immutable and accepts the same slug', async () => {
    const { slug } = (await create()).body.result;
    const changed = await t.call('services.update', { slug, patch: { slug: 'andet-slug' } }, master);
    expect(changed.status).toBe(422);
    expect(changed.body.code).toBe('slug_immutable');
    expect((await t.call('services.update', { slug, patch: { slug } }, master)).status).toBe(200);
  });

  it('applies the create bounds to the patch', async () => {
    const { slug } = (await create()).body.result;
    const response = await t.call('services.update', { slug, patch: { title: 'x', priceString: '' } }, master);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['patch.priceString', 'patch.title']);
  });

  it('answers 404 not_found for an unknown offering', async () => {
    const response = await t.call('services.update', { slug: 'findes-ikke', patch: { title: 'Hej' } }, master);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('not_found');
  });
});

describe('services.list and services.get', () => {
  it('returns the full record with nulls for omitted optional fields', async () => {
    const { slug, id } = (await create({ title: 'Minimal', body: 'Kort.' })).body.result;
    const response = await t.call('services.get', { slug }, { key: await t.keyWith('pages:read') });
    expect(response.body.result).toEqual({
      id, slug, title: 'Minimal', body: 'Kort.', shortDescription: null, priceString: null, heroImage: null, features: [],
      showInNav: false, navOrder: 0, status: 'published', publicUrl: `${BASE_URL}/services/${slug}`,
      createdAt: expect.stringMatching(/Z$/), updatedAt: expect.stringMatching(/Z$/),
    });
  });

  it('lists by navOrder then title, filtered by status', async () => {
    const tag = uniqueSlug('order');
    const third = (await create({ slug: `${tag}-c`, title: 'Cc', navOrder: -5 })).body.result;
    const first = (await create({ slug: `${tag}-a`, title: 'Aa', navOrder: -10 })).body.result;
    const second = (await create({ slug: `${tag}-b`, title: 'Bb', navOrder: -5 })).body.result;
    const draft = (await create({ slug: `${tag}-d`, title: 'Dd', navOrder: -7, status: 'draft', shortDescription: 'Kladde', priceString: '1 kr.' })).body.result;
    const key = await t.keyWith('pages:read');
    const all = (await t.call('services.list', {}, { key })).body.result.filter((s: { slug: string }) => s.slug.startsWith(tag));
    expect(all.map((s: { slug: string }) => s.slug)).toEqual([first.slug, draft.slug, second.slug, third.slug]);
    expect(all[1]).toEqual({
      id: draft.id, slug: draft.slug, title: 'Dd', shortDescription: 'Kladde', priceString: '1 kr.', status: 'draft',
      showInNav: false, navOrder: -7, publicUrl: `${BASE_URL}/services/${draft.slug}`, updatedAt: expect.stringMatching(/Z$/),
    });
    const published = (await t.call('services.list', { status: 'published' }, { key })).body.result;
    expect(published.some((s: { slug: string }) => s.slug === draft.slug)).toBe(false);
    const drafts = (await t.call('services.list', { status: 'draft' }, { key })).body.result;
    expect(drafts.every((s: { status: string }) => s.status === 'draft')).toBe(true);
  });

  it('answers 404 not_found for an unknown slug', async () => {
    const response = await t.call('services.get', { slug: 'findes-ikke' }, master);
    expect(response.status).toBe(404);
  });

  it('needs pages:read to read and pages:write to write', async () => {
    expect((await t.call('services.list', {})).status).toBe(401);
    expect((await t.call('services.list', {}, { key: await t.keyWith('catalog:read') })).status).toBe(403);
    const readOnlyKey = await t.keyWith('pages:read');
    const response = await t.call('services.create', { title: 'Hej hej', body: 'x' }, { key: readOnlyKey });
    expect(response.status).toBe(403);
  });
});

describe('services.delete', () => {
  it('deletes an offering and audits the whole row', async () => {
    const { slug, id } = (await create({ features: ['En'], priceString: '10 kr.' })).body.result;
    const response = await t.call('services.delete', { slug, confirm: true }, master);
    expect(response.body.result).toEqual({ ok: true, slug });
    expect((await t.call('services.get', { slug }, master)).status).toBe(404);
    const [entry] = await t.database.db.select().from(auditEntries).where(eq(auditEntries.targetId, id)).orderBy(desc(auditEntries.at));
    expect(entry).toMatchObject({ tool: 'services.delete', targetType: 'service', after: null });
    expect(entry?.before).toMatchObject({ id, slug, title: 'Synsprøve', features: ['En'], priceString: '10 kr.', status: 'published' });
  });

  it('is undone by audit.revert', async () => {
    const { slug, id } = (await create({ features: ['En', 'To'], navOrder: 7, heroImage: 'https://img.test/h.jpg' })).body.result;
    const before = (await t.call('services.get', { slug }, master)).body.result;
    await t.call('services.delete', { slug, confirm: true }, master);
    const [entry] = await t.database.db.select().from(auditEntries).where(eq(auditEntries.targetId, id)).orderBy(desc(auditEntries.at));
    expect(entry?.tool).toBe('services.delete');
    expect((await t.call('audit.revert', { entryId: entry?.id }, master)).status).toBe(200);
    expect((await t.call('services.get', { slug }, master)).body.result).toEqual(before);
  });

  it.each([[false], ['true'], [undefined]])('rejects confirm: %s with 400 validation_failed', async (confirm) => {
    const { slug } = (await create()).body.result;
    const response = await t.call('services.delete', { slug, confirm }, master);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('confirm');
    const [row] = await t.database.db.select().from(services).where(eq(services.slug, slug));
    expect(row).toBeDefined();
  });

  it('audits create and update with full snapshots', async () => {
    const { id, slug } = (await create({ title: 'Før' })).body.result;
    await t.call('services.update', { slug, patch: { title: 'Efter' } }, master);
    const entries = await t.database.db.select().from(auditEntries).where(eq(auditEntries.targetId, id));
    expect(entries.map((e) => e.tool).sort()).toEqual(['services.create', 'services.update']);
    expect(entries.find((e) => e.tool === 'services.create')).toMatchObject({ targetType: 'service', before: null, after: { id, slug, title: 'Før' } });
    expect(entries.find((e) => e.tool === 'services.update')).toMatchObject({ before: { title: 'Før' }, after: { title: 'Efter', slug } });
  });
});
