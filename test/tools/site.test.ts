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

  it('lets a key without pages:read call it but not an invalid key', async () => {
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

describe('site.get_page shows what the site shows', () => {
  it('gives the layout as text when a layout replaces the body', async () => {
    const slug = uniqueSlug('layout');
    await t.call('pages.upsert', { slug, title: 'Om os', body: 'Den gamle brødtekst.' }, master);
    await t.call('pages.set_layout', {
      slug,
      layout: {
        version: 1,
        sections: [
          { type: 'hero', heading: 'Briller med omtanke', subheading: 'Siden 2012', cta: { label: 'Se ydelser', href: '/services' } },
          { type: 'columns', columns: [{ type: 'text', heading: 'Værksted', body: 'Vi reparerer.' }, { type: 'image', url: 'https://img.test/a.jpg', alt: 'Værkstedet' }] },
          { type: 'cta', label: 'Læs om levering', href: '/info/levering' },
        ],
      },
    }, master);
    const response = await t.call('site.get_page', { slug });
    expect(response.body.result.body).toBe([
      '## Briller med omtanke', 'Siden 2012', '[Se ydelser](/services)',
      '## Værksted', 'Vi reparerer.', '![Værkstedet](https://img.test/a.jpg)',
      '[Læs om levering](/info/levering)',
    ].join('\n\n'));
    expect(response.body.result.body).not.toContain('Den gamle brødtekst');
  });

  it('reads the service offerings anonymously: "services" lists them, "services/<slug>" shows one, drafts stay hidden', async () => {
    const slug = uniqueSlug('ydelse');
    const draftSlug = uniqueSlug('ydelse-kladde');
    await t.call('services.create', {
      slug, title: 'Glasrens', body: 'Vi renser dine glas.', shortDescription: 'Rene glas på fem minutter.',
      priceString: 'Gratis', features: ['Ultralyd', 'Mikrofiberklud'],
    }, master);
    await t.call('services.create', { slug: draftSlug, title: 'Kladdeydelse', body: 'Ikke endnu.', status: 'draft' }, master);

    const listing = (await t.call('site.get_page', { slug: 'services' })).body.result;
    expect(listing).toMatchObject({ slug: 'services', title: 'Ydelser', url: `${BASE_URL}/services` });
    expect(listing.body).toContain(`- [Glasrens](/services/${slug}): Rene glas på fem minutter. (Gratis) — site.get_page slug "services/${slug}"`);
    expect(listing.body).not.toContain(draftSlug);

    const offering = await t.call('site.get_page', { slug: `services/${slug}` });
    expect(offering.body.result).toEqual({
      slug: `services/${slug}`, title: 'Glasrens', url: `${BASE_URL}/services/${slug}`, updatedAt: expect.stringMatching(/Z$/),
      body: 'Rene glas på fem minutter.\n\nGratis\n\n## Det får du\n\n- Ultralyd\n- Mikrofiberklud\n\nVi renser dine glas.',
    });
    const draft = await t.call('site.get_page', { slug: `services/${draftSlug}` });
    expect(draft.status).toBe(404);
    expect(draft.body.detail).toBe(`No published service "services/${draftSlug}"; site.get_page with slug "services" lists them.`);
    const listed = (await t.call('site.list_pages', {})).body.result.map((page: { slug: string }) => page.slug);
    expect(listed).not.toContain(`services/${slug}`);
  });

  it('hides the offerings while the services listing is switched off, as /services does', async () => {
    await t.call('features.set', { key: 'services_listing', enabled: false }, master);
    try {
      expect((await t.call('site.get_page', { slug: 'services' })).status).toBe(404);
      expect((await t.app.inject({ url: '/services' })).statusCode).toBe(404);
    } finally {
      await t.call('features.set', { key: 'services_listing', enabled: true }, master);
    }
  });
});
