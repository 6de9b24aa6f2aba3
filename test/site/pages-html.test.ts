import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { announcements, pages, settings } from '../../src/db/schema.ts';
import { writeSetting } from '../../src/shop/settings.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master, uniqueSlug } from '../helpers/fixtures.ts';
import { ESCAPED_PAYLOAD, PAYLOAD, expectAccessibleDocument, expectInert, section } from './html-checks.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

async function publish(fields: Record<string, unknown> = {}): Promise<string> {
  const slug = uniqueSlug('side');
  const response = await t.call('pages.upsert', { slug, title: 'Levering', body: 'Vi sender samme dag.', ...fields }, master);
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return slug;
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

describe('GET /info/<slug>', () => {
  it('renders a published page from its markdown-like body', async () => {
    const slug = await publish({
      title: 'Returret',
      body: 'Du har 30 dages returret.\n\n## Sådan gør du\n\nPak varen ind.\nSend den til os.\n\n- Kvittering\n- Varen\n\n### Undtagelser\n\nSlebne glas.',
    });
    const response = await get(`/info/${slug}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const main = section(response.body, 'main');
    expect(main).toContain('<h1>Returret</h1><p>Du har 30 dages returret.</p><h2>Sådan gør du</h2>'
      + '<p>Pak varen ind.<br>Send den til os.</p><ul><li>Kvittering</li><li>Varen</li></ul><h3>Undtagelser</h3><p>Slebne glas.</p>');
    expect(response.body).toContain('<title>Returret · Butik</title>');
    expectAccessibleDocument(response.body);
  });

  it('renders the layout instead of the body when the page has one', async () => {
    const slug = await publish({ title: 'Om os', body: 'Brødteksten vises ikke.' });
    await t.call('pages.set_layout', {
      slug,
      layout: {
        version: 1,
        sections: [
          { type: 'hero', heading: 'Briller med omtanke', subheading: 'Siden 2012', image: { url: '/images/demo/skagen-round.svg', alt: 'Runde briller' }, cta: { label: 'Se ydelser', href: '/services' } },
          { type: 'text', heading: 'Historie', body: 'Vi startede i Aarhus.\n\n## Værkstedet\n\nHer reparerer vi.' },
          { type: 'columns', columns: [{ type: 'text', heading: 'Design', body: 'Dansk.' }, { type: 'image', url: 'https://img.test/a.png', alt: 'Et stel', caption: 'Titanium' }] },
          { type: 'cta', label: 'Skriv til os', href: 'mailto:hej@butik.test', style: 'secondary' },
        ],
      },
    }, master);
    const response = await get(`/info/${slug}`);
    const main = section(response.body, 'main');
    expect(main).not.toContain('Brødteksten vises ikke');
    expect(main).toContain('<img class="hero-image" src="/images/demo/skagen-round.svg" alt="Runde briller">');
    expect(main).toContain('<h1>Briller med omtanke</h1><p class="lead">Siden 2012</p><p><a href="/services" class="button button-primary">Se ydelser</a></p>');
    expect(main).toContain('<h2>Historie</h2><p>Vi startede i Aarhus.</p><h3>Værkstedet</h3>');
    expect(main).toContain('<div class="columns columns-2">');
    expect(main).toContain('<figure class="figure"><img src="https://img.test/a.png" alt="Et stel" loading="lazy"><figcaption>Titanium</figcaption></figure>');
    expect(main).toContain('<a href="mailto:hej@butik.test" class="button button-secondary">Skriv til os</a>');
    expectAccessibleDocument(response.body);
  });

  it('puts the page title first as h1 when the layout does not start with a hero', async () => {
    const slug = await publish({ title: 'Kontakt' });
    await t.call('pages.set_layout', { slug, layout: { version: 1, sections: [{ type: 'text', heading: 'Adresse', body: 'Aarhus C.' }] } }, master);
    const main = section((await get(`/info/${slug}`)).body, 'main');
    expect(main).toContain('<h1>Kontakt</h1><section class="text"><h2>Adresse</h2>');
  });

  it('renders the body again once the layout is cleared', async () => {
    const slug = await publish({ body: 'Kun brødtekst her.' });
    await t.call('pages.set_layout', { slug, layout: { version: 1, sections: [{ type: 'text', body: 'Layout-tekst.' }] } }, master);
    await t.call('pages.set_layout', { slug, layout: null }, master);
    expect((await get(`/info/${slug}`)).body).toContain('<p>Kun brødtekst her.</p>');
  });

  it('answers a draft with the styled 404 page', async () => {
    const slug = await publish({ status: 'draft', title: 'Hemmelig kladde' });
    const response = await get(`/info/${slug}`);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<h1>Siden findes ikke</h1>');
    expect(response.body).not.toContain('Hemmelig kladde');
    expectAccessibleDocument(response.body);
  });

  it('answers an unknown or malformed slug with the styled 404 page', async () => {
    for (const url of ['/info/findes-ikke', '/info/%3Cscript%3E']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expectInert(response.body);
    }
  });

  it('answers a deleted page with 404', async () => {
    const slug = await publish();
    await t.call('pages.delete', { slug, confirm: true }, master);
    expect((await get(`/info/${slug}`)).statusCode).toBe(404);
  });
});

describe('caching headers', () => {
  it('sends an ETag and a short public Cache-Control, and 304 for a matching If-None-Match', async () => {
    const slug = await publish();
    const first = await get(`/info/${slug}`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const again = await get(`/info/${slug}`);
    expect(again.headers.etag).toBe(etag);
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const cached = await get(`/info/${slug}`, { 'if-none-match': condition });
      expect(cached.statusCode, condition).toBe(304);
      expect(cached.body).toBe('');
      expect(cached.headers.etag).toBe(etag);
    }
    expect((await get(`/info/${slug}`, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('changes the ETag when the page changes', async () => {
    const slug = await publish();
    const before = (await get(`/info/${slug}`)).headers.etag;
    await t.call('pages.upsert', { slug, title: 'Levering', body: 'Vi sender næste dag.' }, master);
    const after = await get(`/info/${slug}`, { 'if-none-match': String(before) });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it('forbids script through Content-Security-Policy', async () => {
    const response = await get(`/info/${await publish()}`);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('HTML injection', () => {
  afterEach(async () => {
    await t.database.db.delete(announcements);
    await t.database.db.delete(settings);
  });

  it('escapes the title and every part of the body', async () => {
    const slug = await publish({ title: PAYLOAD, body: `${PAYLOAD}\n\n## ${PAYLOAD}\n\n- ${PAYLOAD}\n\n<img src=x onerror=alert(4)>` });
    const response = await get(`/info/${slug}`);
    expect(response.statusCode).toBe(200);
    expectInert(response.body);
    expect(response.body).toContain(`<title>${ESCAPED_PAYLOAD} · Butik</title>`);
    expect(response.body).toContain(`<h1>${ESCAPED_PAYLOAD}</h1><p>${ESCAPED_PAYLOAD}</p><h2>${ESCAPED_PAYLOAD}</h2><ul><li>${ESCAPED_PAYLOAD}</li></ul>`);
    expect(response.body).toContain('<p>&lt;img src=x onerror=alert(4)&gt;</p>');
    // The title is also a navigation link in header and footer.
    expect(section(response.body, 'header')).toContain(`>${ESCAPED_PAYLOAD}</a>`);
  });

  it('refuses layout links and image addresses that carry quotes or angle brackets', async () => {
    const slug = await publish();
    const response = await t.call('pages.set_layout', {
      slug,
      layout: {
        version: 1,
        sections: [
          { type: 'cta', label: 'Klik', href: '/x?"onload="alert(1)' },
          { type: 'image', url: 'https://img.test/a.png?q="onload="x', alt: 'Et stel' },
          { type: 'cta', label: 'Klik', href: 'https://butik.test/?a=<script>' },
        ],
      },
    }, master);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toEqual(['layout.sections.0.href', 'layout.sections.1.url', 'layout.sections.2.href']);
  });

  it('escapes every text field of a layout', async () => {
    const slug = await publish();
    const layout = {
      version: 1,
      sections: [
        { type: 'hero', heading: PAYLOAD, subheading: PAYLOAD, image: { url: 'https://img.test/a.png', alt: PAYLOAD }, cta: { label: PAYLOAD, href: '/services' } },
        { type: 'text', heading: PAYLOAD, body: PAYLOAD },
        { type: 'image', url: '/a.png', alt: PAYLOAD, caption: PAYLOAD },
        { type: 'cta', label: PAYLOAD, href: 'https://butik.test/' },
        { type: 'columns', columns: [{ type: 'text', body: PAYLOAD }, { type: 'cta', label: PAYLOAD, href: 'mailto:a@b.dk' }] },
      ],
    };
    expect((await t.call('pages.set_layout', { slug, layout }, master)).status).toBe(200);
    const main = section((await get(`/info/${slug}`)).body, 'main');
    expectInert(main);
    expect(main.split(ESCAPED_PAYLOAD).length - 1).toBe(11);
    expect(main).toContain(`alt="${ESCAPED_PAYLOAD}"`);
  });

  it('renders the body, not a stored layout that no longer validates (javascript: link)', async () => {
    const slug = await publish({ body: 'Sikker brødtekst.' });
    await t.database.db.update(pages).set({
      layout: { version: 1, sections: [{ type: 'cta', label: 'Klik', href: 'javascript:alert(1)' }] },
    }).where(eq(pages.slug, slug));
    const response = await get(`/info/${slug}`);
    expectInert(response.body);
    expect(response.body).toContain('<p>Sikker brødtekst.</p>');
  });

  it('escapes the store name and the announcement, and drops a javascript: announcement link', async () => {
    await writeSetting(t.database.db, { key: 'storeName', value: PAYLOAD, now: new Date() });
    await t.database.db.insert(announcements).values({ text: PAYLOAD, linkUrl: 'javascript:alert(1)', linkText: PAYLOAD });
    const response = await get(`/info/${await publish()}`);
    expectInert(response.body);
    expect(response.body).toContain(`<aside class="announcement" aria-label="Meddelelse"><p class="wrap">${ESCAPED_PAYLOAD} <span>${ESCAPED_PAYLOAD}</span></p></aside>`);
    expect(response.body).toContain(`<title>Levering · ${ESCAPED_PAYLOAD}</title>`);
  });
});

describe('announcement banner', () => {
  afterEach(async () => { await t.database.db.delete(announcements); });

  it('shows the active announcement at the top of every public page, 404 included', async () => {
    await t.database.db.insert(announcements).values({ text: 'Fri fragt hele ugen', linkUrl: '/info/levering', linkText: 'Læs mere' });
    const slug = await publish();
    for (const url of [`/info/${slug}`, '/services', '/info/findes-ikke']) {
      const body = (await get(url)).body;
      const banner = '<aside class="announcement" aria-label="Meddelelse"><p class="wrap">Fri fragt hele ugen <a href="/info/levering">Læs mere</a></p></aside>';
      expect(body, url).toContain(banner);
      expect(body.indexOf(banner), url).toBeLessThan(body.indexOf('<header'));
    }
  });

  it('shows no banner for an inactive or expired announcement', async () => {
    await t.database.db.insert(announcements).values([
      { text: 'Slukket', active: false },
      { text: 'Udløbet', endsAt: new Date(Date.now() - 60_000) },
      { text: 'Fremtidig', startsAt: new Date(Date.now() + 3_600_000) },
    ]);
    const body = (await get(`/info/${await publish()}`)).body;
    expect(body).not.toContain('class="announcement"');
  });
});

describe('site chrome', () => {
  afterEach(async () => { await t.database.db.delete(settings); });

  it('uses the store name from the settings', async () => {
    await writeSetting(t.database.db, { key: 'storeName', value: 'Brillehuset', now: new Date() });
    const body = (await get(`/info/${await publish({ title: 'Om butikken' })}`)).body;
    expect(body).toContain('<title>Om butikken · Brillehuset</title>');
    expect(section(body, 'header')).toContain('<p class="brand"><a href="/">Brillehuset</a></p>');
  });

  it('shows the tagline and the company details from the settings', async () => {
    const now = new Date();
    await writeSetting(t.database.db, { key: 'tagline', value: 'Briller siden 2012', now });
    await writeSetting(t.database.db, { key: 'companyAddress', value: 'Nørregade 1, 8000 Aarhus C', now });
    await writeSetting(t.database.db, { key: 'cvrNumber', value: '12345678', now });
    await writeSetting(t.database.db, { key: 'contactEmail', value: 'hej@butik.test', now });
    const body = (await get(`/info/${await publish()}`)).body;
    expect(section(body, 'header')).toContain('<p class="tagline">Briller siden 2012</p>');
    expect(section(body, 'footer')).toContain('<address class="company"><strong>Butik</strong> · Nørregade 1, 8000 Aarhus C · CVR 12345678 · '
      + '<a href="mailto:hej@butik.test">hej@butik.test</a></address>');
  });

  it('escapes the company details', async () => {
    const now = new Date();
    await writeSetting(t.database.db, { key: 'tagline', value: PAYLOAD, now });
    await writeSetting(t.database.db, { key: 'companyAddress', value: PAYLOAD, now });
    const body = (await get(`/info/${await publish()}`)).body;
    expectInert(body);
    expect(section(body, 'header')).toContain(`<p class="tagline">${ESCAPED_PAYLOAD}</p>`);
    expect(section(body, 'footer')).toContain(`<strong>Butik</strong> · ${ESCAPED_PAYLOAD}</address>`);
  });

  it('links published pages, never drafts, and marks the current one', async () => {
    const slug = await publish({ title: 'Synlig side' });
    const hidden = await publish({ title: 'Skjult kladde', status: 'draft' });
    const body = (await get(`/info/${slug}`)).body;
    expect(section(body, 'header')).toContain(`<a href="/info/${slug}" aria-current="page">Synlig side</a>`);
    expect(section(body, 'footer')).toContain(`<a href="/info/${slug}">Synlig side</a>`);
    expect(body).not.toContain(hidden);
  });

  it('serves the stylesheet with caching headers', async () => {
    const response = await get('/assets/site.css');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(response.headers.etag).toBeDefined();
    expect(response.body).toContain('.site-header');
    expect((await get('/assets/site.css', { 'if-none-match': String(response.headers.etag) })).statusCode).toBe(304);
  });
});
