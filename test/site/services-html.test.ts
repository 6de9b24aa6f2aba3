import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { pages, products, services } from '../../src/db/schema.ts';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master, uniqueSlug } from '../helpers/fixtures.ts';
import { ESCAPED_PAYLOAD, PAYLOAD, expectAccessibleDocument, expectInert, section } from './html-checks.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The demo store brings three published offerings (navOrder 10, 20, 30), one draft (15) and five pages.
  await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
});
afterAll(async () => { await t?.close(); });

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

async function create(fields: Record<string, unknown>) {
  const response = await t.call('services.create', { slug: uniqueSlug('ydelse'), title: 'Ydelse', body: 'Lang tekst.', ...fields }, master);
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body.result as { id: string; slug: string };
}

/** The offering titles of the /services listing, in page order. */
function listedTitles(html: string): string[] {
  return [...section(html, 'main').matchAll(/<h2><a href="\/services\/[a-z0-9-]+">([^<]*)<\/a><\/h2>/g)].map((m) => m[1] ?? '');
}

describe('demo seed', () => {
  it('adds the demo pages and offerings once; a second run changes nothing', async () => {
    const counts = async () => ({
      pages: (await t.database.db.select({ n: count() }).from(pages))[0]?.n,
      services: (await t.database.db.select({ n: count() }).from(services))[0]?.n,
      products: (await t.database.db.select({ n: count() }).from(products))[0]?.n,
    });
    const before = await counts();
    expect(before).toMatchObject({ pages: 5, services: 4 });
    expect(await seedDemoStore(t.database.db, { baseUrl: BASE_URL })).toBe(false);
    expect(await counts()).toEqual(before);
  });

  it('publishes om-os, levering, returret and privatliv and keeps the job page a draft', async () => {
    const listed = (await t.call('site.list_pages', {})).body.result.map((p: { slug: string }) => p.slug).sort();
    expect(listed).toEqual(['levering', 'om-os', 'privatliv', 'returret']);
    expect((await get('/info/job')).statusCode).toBe(404);
  });
});

describe('GET /services', () => {
  it('lists the published offerings by navOrder and never the draft', async () => {
    const response = await get('/services');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(listedTitles(response.body)).toEqual(['Synsprøve', 'Brillerens', 'Stelreparation']);
    expect(response.body).not.toContain('Hjemmebesøg');
    expect(section(response.body, 'main')).toContain('<p class="price">Fra 150 kr.</p>');
    expectAccessibleDocument(response.body);
  });

  it('places a new offering by its navOrder and follows a move to draft', async () => {
    const created = await create({ title: 'Kontaktlinser', navOrder: 25, shortDescription: 'Tilpasning af linser.' });
    expect(listedTitles((await get('/services')).body)).toEqual(['Synsprøve', 'Brillerens', 'Kontaktlinser', 'Stelreparation']);
    await t.call('services.update', { slug: created.slug, patch: { status: 'draft' } }, master);
    expect(listedTitles((await get('/services')).body)).toEqual(['Synsprøve', 'Brillerens', 'Stelreparation']);
  });

  it('does not add a header link for showInNav', async () => {
    const created = await create({ title: 'Nav-test', showInNav: true, navOrder: 99 });
    const body = (await get('/services')).body;
    expect(section(body, 'main')).toContain(`/services/${created.slug}`);
    expect(section(body, 'header')).not.toContain(created.slug);
    expect(section(body, 'header')).not.toContain('/services/synsproeve');
    await t.call('services.delete', { slug: created.slug, confirm: true }, master);
  });

  it('answers 304 for a matching If-None-Match', async () => {
    const first = await get('/services');
    const cached = await get('/services', { 'if-none-match': String(first.headers.etag) });
    expect(cached.statusCode).toBe(304);
  });

  it('is 404 with the services_listing flag off, offering pages and header link included', async () => {
    expect((await t.call('features.set', { key: 'services_listing', enabled: false }, master)).status).toBe(200);
    try {
      for (const url of ['/services', '/services/synsproeve']) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.body).toContain('<h1>Siden findes ikke</h1>');
      }
      expect(section((await get('/info/levering')).body, 'header')).not.toContain('href="/services"');
    } finally {
      await t.call('features.set', { key: 'services_listing', enabled: true }, master);
    }
    expect((await get('/services')).statusCode).toBe(200);
  });
});

describe('GET /services/<slug>', () => {
  it('shows a published offering with its price, features, image and body', async () => {
    const response = await get('/services/synsproeve');
    expect(response.statusCode).toBe(200);
    const main = section(response.body, 'main');
    expect(main).toContain('<h1>Synsprøve</h1>');
    expect(main).toContain('<p class="price">Gratis ved køb af briller</p>');
    expect(main).toContain(`<img class="hero-image" src="${BASE_URL}/images/demo/synsproeve.svg" alt="Synsprøve">`);
    expect(main).toContain('<h2>Det får du</h2><ul><li>Tager ca. 30 minutter</li>');
    expect(main).toContain('<h2>Sådan foregår det</h2>');
    expect(response.body).toContain('<meta name="description" content="Grundig synsprøve hos en autoriseret optiker, også til bilkørsel.">');
    expectAccessibleDocument(response.body);
  });

  it('answers a draft or an unknown slug with the styled 404 page', async () => {
    for (const url of ['/services/hjemmebesoeg', '/services/findes-ikke']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).not.toContain('Hjemmebesøg');
      expect(response.body).not.toContain('aria-current');
      expect(section(response.body, 'main')).toContain('<a href="/services" class="button button-secondary">Se alle vores ydelser</a>');
      expectAccessibleDocument(response.body);
    }
  });

  it('escapes every field of an offering, on its page and in the listing', async () => {
    const created = await create({
      title: PAYLOAD, shortDescription: PAYLOAD, priceString: PAYLOAD, features: [PAYLOAD, PAYLOAD],
      body: `${PAYLOAD}\n\n## ${PAYLOAD}`, heroImage: 'https://img.test/a.png?x=1', navOrder: 1,
    });
    const page = await get(`/services/${created.slug}`);
    expect(page.statusCode).toBe(200);
    expectInert(page.body);
    const main = section(page.body, 'main');
    expect(main).toContain(`<h1>${ESCAPED_PAYLOAD}</h1>`);
    expect(main).toContain(`<p class="lead">${ESCAPED_PAYLOAD}</p>\n<p class="price">${ESCAPED_PAYLOAD}</p>`);
    expect(main).toContain(`<li>${ESCAPED_PAYLOAD}</li><li>${ESCAPED_PAYLOAD}</li>`);
    expect(main).toContain(`<p>${ESCAPED_PAYLOAD}</p><h2>${ESCAPED_PAYLOAD}</h2>`);
    expect(main).toContain(`src="https://img.test/a.png?x=1" alt="${ESCAPED_PAYLOAD}"`);
    expect(page.body).toContain(`<meta name="description" content="${ESCAPED_PAYLOAD}">`);
    expect(page.body).toContain(`<title>${ESCAPED_PAYLOAD} · Butik</title>`);
    const listing = await get('/services');
    expectInert(listing.body);
    expect(section(listing.body, 'main')).toContain(`<a href="/services/${created.slug}">${ESCAPED_PAYLOAD}</a>`);
    await t.call('services.delete', { slug: created.slug, confirm: true }, master);
  });

  it('drops a stored hero image that is not a plain http(s) URL', async () => {
    const created = await create({ title: 'Billedtest' });
    for (const heroImage of ['javascript:alert(1)', 'https://img.test/a.png?x="onload="alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>']) {
      await t.database.db.update(services).set({ heroImage }).where(eq(services.slug, created.slug));
      const main = section((await get(`/services/${created.slug}`)).body, 'main');
      expectInert(main);
      expect(main, heroImage).not.toContain('<img');
    }
    await t.call('services.delete', { slug: created.slug, confirm: true }, master);
  });
});

describe('GET /images/demo/<slug>.svg', () => {
  it('draws the same glasses for the same slug and other colours for another', async () => {
    const first = await get('/images/demo/aviator-classic.svg');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(first.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(first.body).toContain('<title id="t">Illustration: aviator classic</title>');
    expect((await get('/images/demo/aviator-classic.svg')).body).toBe(first.body);
    expect((await get('/images/demo/wayfarer-sort.svg')).body).not.toBe(first.body);
    expect((await get('/images/demo/aviator-classic.svg', { 'if-none-match': String(first.headers.etag) })).statusCode).toBe(304);
  });

  it('serves an image for every demo product URL', async () => {
    const images = (await t.call('products.search', { limit: 100 })).body.result.map((p: { firstImage: string }) => p.firstImage);
    expect(images.length).toBeGreaterThan(20);
    for (const url of images) {
      const response = await get(url.replace(BASE_URL, ''));
      expect(response.statusCode, url).toBe(200);
    }
  });

  it.each(['/images/demo/Aviator.svg', '/images/demo/a.svg', '/images/demo/aviator.png', '/images/demo/..%2Fsecret.svg', '/images/demo/%3Cscript%3E.svg'])(
    'answers %s with 404',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(404);
      expectInert(response.body);
    },
  );
});
