import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, pages } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master, uniqueSlug } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const BODY = 'Ti tegn og lidt mere tekst.';

async function upsert(fields: Record<string, unknown>) {
  return t.call('pages.upsert', { slug: uniqueSlug('page'), title: 'Om os', body: BODY, ...fields }, master);
}

async function storedPage(slug: string) {
  const [row] = await t.database.db.select().from(pages).where(eq(pages.slug, slug));
  return row;
}

const layout = {
  version: 1,
  sections: [
    { type: 'hero', heading: 'Velkommen', subheading: 'Briller siden 2012', image: { url: 'https://img.test/hero.jpg', alt: 'Butikken' }, cta: { label: 'Se ydelser', href: '/services' } },
    { type: 'text', heading: 'Historie', body: 'Vi startede i Aarhus.' },
    { type: 'image', url: 'http://img.test/a.png', alt: 'Et stel', caption: 'Vores værksted' },
    { type: 'cta', label: 'Skriv til os', href: 'mailto:hej@butik.test', style: 'secondary' },
    { type: 'columns', columns: [{ type: 'text', body: 'Venstre' }, { type: 'cta', label: 'Højre', href: 'https://butik.test/x' }] },
  ],
};

describe('pages.upsert status', () => {
  it('creates a page as published when status is omitted', async () => {
    const slug = uniqueSlug('page');
    const response = await upsert({ slug });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ id: expect.any(String), slug, title: 'Om os', status: 'published' });
  });

  it('creates a page with the given status', async () => {
    const response = await upsert({ status: 'draft' });
    expect(response.body.result.status).toBe('draft');
  });

  it('keeps the status of an existing page when status is omitted and updates title and body', async () => {
    const created = await upsert({ status: 'draft' });
    const slug = created.body.result.slug;
    const updated = await t.call('pages.upsert', { slug, title: 'Ny titel', body: 'En helt ny brødtekst.' }, master);
    expect(updated.body.result).toEqual({ id: created.body.result.id, slug, title: 'Ny titel', status: 'draft' });
    expect(await storedPage(slug)).toMatchObject({ title: 'Ny titel', body: 'En helt ny brødtekst.', status: 'draft' });
  });

  it('sets the given status on an existing page', async () => {
    const created = await upsert({ status: 'draft' });
    const slug = created.body.result.slug;
    const published = await t.call('pages.upsert', { slug, title: 'Om os', body: BODY, status: 'published' }, master);
    expect(published.body.result.status).toBe('published');
    const draft = await t.call('pages.upsert', { slug, title: 'Om os', body: BODY, status: 'draft' }, master);
    expect(draft.body.result).toEqual({ id: created.body.result.id, slug, title: 'Om os', status: 'draft' });
  });
});

describe('pages.upsert bounds', () => {
  it.each([
    ['a one-character title', { title: 'A' }, 'title'],
    ['a 201-character title', { title: 'x'.repeat(201) }, 'title'],
    ['a nine-character body', { body: '123456789' }, 'body'],
    ['an uppercase slug', { slug: 'Om-Os' }, 'slug'],
    ['a slug with a space', { slug: 'om os' }, 'slug'],
    ['a one-character slug', { slug: 'a' }, 'slug'],
    ['an unknown status', { status: 'archived' }, 'status'],
    ['an unknown field', { vibeHtml: '<p>hej</p>' }, 'vibeHtml'],
  ])('rejects %s with 400 validation_failed', async (_name, fields, path) => {
    const response = await upsert(fields);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('accepts a body of any length that fits in the 1 MiB request, and serves it whole', async () => {
    const paragraph = 'Stellet er håndlavet i Danmark af genanvendt acetat, og glassene filtrerer 100 % UV. ';
    const body = `## Materialer\n\n${paragraph.repeat(Math.floor(900_000 / paragraph.length))}`;
    expect(Buffer.byteLength(JSON.stringify({ slug: 'x', title: 'Om os', body }))).toBeGreaterThan(900_000);
    const slug = uniqueSlug('long');
    const response = await upsert({ slug, body });
    expect(response.status).toBe(200);
    expect((await storedPage(slug))?.body).toBe(body);
    const got = await t.call('site.get_page', { slug });
    expect(got.body.result.body).toHaveLength(body.length);
  });

  it('accepts a two-character title, a ten-character body and a 200-character title', async () => {
    expect((await upsert({ title: 'Ok', body: '1234567890' })).status).toBe(200);
    expect((await upsert({ title: 'x'.repeat(200) })).status).toBe(200);
  });

  it('requires slug, title and body', async () => {
    const response = await t.call('pages.upsert', {}, master);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body', 'slug', 'title']);
  });
});

describe('pages.list', () => {
  it('lists every page, drafts included, with exactly id, slug, title, status and updatedAt', async () => {
    const draft = (await upsert({ status: 'draft', title: 'Kladde' })).body.result;
    const response = await t.call('pages.list', {}, { key: await t.keyWith('pages:read') });
    expect(response.status).toBe(200);
    const listed = response.body.result.find((page: { slug: string }) => page.slug === draft.slug);
    expect(listed).toEqual({ id: draft.id, slug: draft.slug, title: 'Kladde', status: 'draft', updatedAt: expect.stringMatching(/Z$/) });
  });

  it('needs a key: anonymous 401, a key without pages:read 403', async () => {
    expect((await t.call('pages.list', {})).status).toBe(401);
    const response = await t.call('pages.list', {}, { key: await t.keyWith('catalog:read') });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('insufficient_scope');
  });

  it('does not let pages:read write', async () => {
    const response = await t.call('pages.upsert', { slug: uniqueSlug('page'), title: 'Om os', body: BODY }, { key: await t.keyWith('pages:read') });
    expect(response.status).toBe(403);
  });
});

describe('pages.delete', () => {
  it('deletes a page and audits the whole page so it can be restored', async () => {
    const created = (await upsert({ title: 'Levering' })).body.result;
    await t.call('pages.set_layout', { slug: created.slug, layout }, master);
    const response = await t.call('pages.delete', { slug: created.slug, confirm: true }, master);
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ ok: true, slug: created.slug });
    expect(await storedPage(created.slug)).toBeUndefined();
    const [entry] = await t.database.db.select().from(auditEntries)
      .where(eq(auditEntries.targetId, created.id)).orderBy(desc(auditEntries.at));
    expect(entry).toMatchObject({ tool: 'pages.delete', targetType: 'page', after: null });
    expect(entry?.before).toMatchObject({ id: created.id, slug: created.slug, title: 'Levering', body: BODY, status: 'published', layout });
  });

  it('is undone by audit.revert, layout included', async () => {
    const created = (await upsert({ title: 'Privatliv' })).body.result;
    await t.call('pages.set_layout', { slug: created.slug, layout }, master);
    await t.call('pages.delete', { slug: created.slug, confirm: true }, master);
    const [entry] = await t.database.db.select().from(auditEntries)
      .where(eq(auditEntries.tool, 'pages.delete')).orderBy(desc(auditEntries.at));
    expect(entry?.targetId).toBe(created.id);
    const reverted = await t.call('audit.revert', { entryId: entry?.id }, master);
    expect(reverted.status).toBe(200);
    expect(await storedPage(created.slug)).toMatchObject({ id: created.id, title: 'Privatliv', body: BODY, status: 'published', layout });
    expect((await t.call('pages.get_layout', { slug: created.slug }, master)).body.result).toEqual(layout);
  });

  it.each([
    ['confirm: false', { confirm: false }],
    ['confirm: "true"', { confirm: 'true' }],
    ['no confirm', {}],
  ])('rejects %s with 400 validation_failed', async (_name, fields) => {
    const created = (await upsert({})).body.result;
    const response = await t.call('pages.delete', { slug: created.slug, ...fields }, master);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors[0].path).toBe('confirm');
    expect(await storedPage(created.slug)).toBeDefined();
  });

  it('answers 404 not_found for an unknown page', async () => {
    const response = await t.call('pages.delete', { slug: 'findes-ikke', confirm: true }, master);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('not_found');
  });
});

describe('page layouts', () => {
  it('returns null for a page without a layout', async () => {
    const created = (await upsert({})).body.result;
    const response = await t.call('pages.get_layout', { slug: created.slug }, master);
    expect(response.status).toBe(200);
    expect(response.body.result).toBeNull();
  });

  it('stores a layout, returns it, and clears it again with null', async () => {
    const created = (await upsert({})).body.result;
    const set = await t.call('pages.set_layout', { slug: created.slug, layout }, master);
    expect(set.body.result).toEqual({ slug: created.slug, hasLayout: true });
    expect((await t.call('pages.get_layout', { slug: created.slug }, master)).body.result).toEqual(layout);
    const cleared = await t.call('pages.set_layout', { slug: created.slug, layout: null }, master);
    expect(cleared.body.result).toEqual({ slug: created.slug, hasLayout: false });
    expect((await t.call('pages.get_layout', { slug: created.slug }, master)).body.result).toBeNull();
    expect((await storedPage(created.slug))?.layout).toBeNull();
  });

  it('keeps the layout when pages.upsert updates title and body', async () => {
    const created = (await upsert({})).body.result;
    await t.call('pages.set_layout', { slug: created.slug, layout }, master);
    await t.call('pages.upsert', { slug: created.slug, title: 'Ændret', body: BODY }, master);
    expect((await t.call('pages.get_layout', { slug: created.slug }, master)).body.result).toEqual(layout);
  });

  it('answers 404 not_found for the layout of an unknown page', async () => {
    const get = await t.call('pages.get_layout', { slug: 'findes-ikke' }, master);
    expect(get.status).toBe(404);
    expect(get.body.code).toBe('not_found');
    const set = await t.call('pages.set_layout', { slug: 'findes-ikke', layout: null }, master);
    expect(set.status).toBe(404);
  });

  const hero = { type: 'hero', heading: 'Hej' };
  it.each([
    ['a javascript: link', { type: 'cta', label: 'Klik', href: 'javascript:alert(1)' }, 'sections.0.href'],
    ['a JavaScript: link in mixed case', { type: 'cta', label: 'Klik', href: 'JaVaScRiPt:alert(1)' }, 'sections.0.href'],
    ['a data: link', { type: 'cta', label: 'Klik', href: 'data:text/html,<script>alert(1)</script>' }, 'sections.0.href'],
    ['a protocol-relative link', { type: 'cta', label: 'Klik', href: '//evil.test/x' }, 'sections.0.href'],
    ['a relative link without a leading slash', { type: 'cta', label: 'Klik', href: 'services' }, 'sections.0.href'],
    ['a site path the site does not serve', { type: 'cta', label: 'Klik', href: '/kategori/solbriller' }, 'sections.0.href'],
    ['a hero button to a path the site does not serve', { ...hero, cta: { label: 'Klik', href: '/info' } }, 'sections.0.cta.href'],
    ['a javascript: hero button', { ...hero, cta: { label: 'Klik', href: 'javascript:alert(1)' } }, 'sections.0.cta.href'],
    ['an image without alt', { type: 'image', url: 'https://img.test/a.png' }, 'sections.0.alt'],
    ['an empty alt', { type: 'image', url: 'https://img.test/a.png', alt: '' }, 'sections.0.alt'],
    ['a data: image', { type: 'image', url: 'data:image/svg+xml,<svg onload=alert(1)>', alt: 'x' }, 'sections.0.url'],
    ['an ftp image', { type: 'image', url: 'ftp://img.test/a.png', alt: 'x' }, 'sections.0.url'],
    ['an unknown section type', { type: 'video', url: 'https://v.test' }, 'sections.0.type'],
    ['an unknown field', { ...hero, onload: 'alert(1)' }, 'sections.0.onload'],
    ['a text without body', { type: 'text', heading: 'Hej' }, 'sections.0.body'],
    ['a hero heading over 200 characters', { type: 'hero', heading: 'x'.repeat(201) }, 'sections.0.heading'],
    ['one column', { type: 'columns', columns: [hero] }, 'sections.0.columns'],
    ['five columns', { type: 'columns', columns: [hero, hero, hero, hero, hero] }, 'sections.0.columns'],
    ['nested columns', { type: 'columns', columns: [hero, { type: 'columns', columns: [hero, hero] }] }, 'sections.0.columns.1.type'],
  ])('rejects %s with 400 validation_failed and errors[]', async (_name, section, path) => {
    const created = (await upsert({})).body.result;
    const response = await t.call('pages.set_layout', { slug: created.slug, layout: { version: 1, sections: [section] } }, master);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(`layout.${path}`);
    expect((await storedPage(created.slug))?.layout).toBeNull();
  });

  it.each([
    ['version 2', { version: 2, sections: [] }, 'layout.version'],
    ['no sections', { version: 1 }, 'layout.sections'],
    ['51 sections', { version: 1, sections: Array.from({ length: 51 }, () => hero) }, 'layout.sections'],
    ['a string', 'hero', 'layout'],
  ])('rejects a layout with %s', async (_name, invalid, path) => {
    const created = (await upsert({})).body.result;
    const response = await t.call('pages.set_layout', { slug: created.slug, layout: invalid }, master);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});
