import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { formFields, page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let manager = '';
let viewer = '';
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: 'http://butik.test' });
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
  viewer = await staffCookie(t, 'vera@shop.dk', 'viewer');
});
afterAll(async () => t.close());

const layoutOf = async (slug: string) => (await t.call('pages.get_layout', { slug }, master)).body.result;

describe('the pages page', () => {
  it('lists every page, drafts included, with a preview link', async () => {
    const list = await page(t.app, manager, '/admin/pages');
    expect(list.response.statusCode).toBe(200);
    expect(list.response.body).toContain('<a href="/admin/pages/om-os">Om os</a>');
    expect(list.response.body).toContain('<a href="/admin/pages/om-os/preview">Preview<span class="skip-link"> Om os</span></a>');
  });

  it('creates a draft page through pages.upsert, refusing a taken slug and a short body next to their fields', async () => {
    const form = await page(t.app, manager, '/admin/pages/new');
    const taken = await post(t.app, manager, '/admin/pages/new', { _csrf: form.csrf ?? '', slug: 'om-os', title: 'Om os igen', body: 'En helt ny tekst her.', status: 'draft' });
    expect(taken.statusCode).toBe(422);
    expect(taken.body).toMatch(/id="field-slug"[^>]*value="om-os"[^>]*aria-invalid="true"/);
    expect((await t.call('pages.list', {}, master)).body.result.find((p: { slug: string }) => p.slug === 'om-os').title).toBe('Om os');
    const short = await post(t.app, manager, '/admin/pages/new', { _csrf: form.csrf ?? '', slug: 'aabning', title: 'Åbningstider', body: 'Kort', status: 'draft' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toMatch(/<textarea id="field-body" name="body" required aria-invalid="true"[^>]*>Kort<\/textarea>/);
    expect(short.body).toContain('What to do');

    const made = await post(t.app, manager, '/admin/pages/new', { _csrf: form.csrf ?? '', slug: 'aabning', title: 'Åbningstider', body: 'Vi har åbent alle hverdage.', status: 'draft' });
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe('/admin/pages/aabning?done=created');
    expect((await t.call('pages.list', {}, master)).body.result).toContainEqual(expect.objectContaining({ slug: 'aabning', status: 'draft', title: 'Åbningstider' }));
  });

  it('builds a layout with plain forms: adding, moving and removing change only the form, saving calls pages.set_layout', async () => {
    const action = '/admin/pages/aabning/layout';
    const edit = await page(t.app, manager, '/admin/pages/aabning');
    expect(edit.response.body).toContain('This page has no layout: it shows its body.');
    const added = await post(t.app, manager, action, { ...formFields(edit.response.body, action), 'new:sections': 'hero', op: 'add:sections' });
    expect(added.statusCode).toBe(200);
    expect(added.body).toContain('The layout has changes that are not saved yet.');
    expect(added.body).toContain('<legend>Section 1: hero</legend>');
    expect(await layoutOf('aabning')).toBeNull();

    const withText = await post(t.app, manager, action, {
      ...formFields(added.body, action), 'layout.sections.0.heading': 'Velkommen', 'new:sections': 'text', op: 'add:sections',
    });
    const moved = await post(t.app, manager, action, { ...formFields(withText.body, action), 'layout.sections.1.body': 'Mandag til fredag 10–17.', op: 'up:sections.1' });
    expect(moved.body).toMatch(/<legend>Section 1: text<\/legend>.*<legend>Section 2: hero<\/legend>/s);
    // What was typed before the move travels with its section.
    expect(moved.body).toContain('name="layout.sections.1.heading" type="text" value="Velkommen"');

    const saved = await post(t.app, manager, action, { ...formFields(moved.body, action), op: 'save' });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/admin/pages/aabning?done=layout#layout-title');
    expect(await layoutOf('aabning')).toEqual({ version: 1, sections: [{ type: 'text', body: 'Mandag til fredag 10–17.' }, { type: 'hero', heading: 'Velkommen' }] });

    const again = await page(t.app, manager, '/admin/pages/aabning');
    const removed = await post(t.app, manager, action, { ...formFields(again.response.body, action), op: 'remove:sections.0' });
    expect(removed.body).not.toContain('Section 2:');
    expect((await post(t.app, manager, action, { ...formFields(removed.body, action), op: 'save' })).statusCode).toBe(303);
    expect(await layoutOf('aabning')).toEqual({ version: 1, sections: [{ type: 'hero', heading: 'Velkommen' }] });
  });

  it('keeps a stored layout as it is when its form is saved unchanged, columns included', async () => {
    const before = await layoutOf('om-os');
    const edit = await page(t.app, manager, '/admin/pages/om-os');
    expect(edit.response.body).toContain('<legend>Column 3: text</legend>');
    const saved = await post(t.app, manager, '/admin/pages/om-os/layout', { ...formFields(edit.response.body, '/admin/pages/om-os/layout'), op: 'save' });
    expect(saved.statusCode).toBe(303);
    expect(await layoutOf('om-os')).toEqual(before);

    const reloaded = await page(t.app, manager, '/admin/pages/om-os');
    const heading = await post(t.app, manager, '/admin/pages/om-os/layout', {
      ...formFields(reloaded.response.body, '/admin/pages/om-os/layout'), 'layout.sections.2.columns.1.heading': 'Optikere i huset', op: 'save',
    });
    expect(heading.statusCode).toBe(303);
    // Activity names the one heading that changed, not two long layouts.
    const activity = await page(t.app, manager, '/admin/activity?target=om-os&tool=pages.set_layout');
    expect(activity.response.body).toContain('<td data-label="Field" title="layout.sections.2.columns.1.heading">Section 3 column 2 heading</td><td data-label="Before">Optiker i huset</td><td data-label="After">Optikere i huset</td>');
  });

  it('shows a refused layout link next to its field, keeping what was typed and the unsaved sections', async () => {
    const action = '/admin/pages/aabning/layout';
    const edit = await page(t.app, manager, '/admin/pages/aabning');
    const withButton = await post(t.app, manager, action, { ...formFields(edit.response.body, action), 'new:sections': 'cta', op: 'add:sections' });
    const refused = await post(t.app, manager, action, {
      ...formFields(withButton.body, action), 'layout.sections.1.label': 'Ring til os', 'layout.sections.1.href': 'javascript:alert(1)', op: 'save',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/id="field-layout.sections.1.href"[^>]*value="javascript:alert\(1\)"[^>]*aria-invalid="true"/);
    expect(refused.body).toContain('must be an http(s) URL, a path starting with &quot;/&quot;, or a mailto: address');
    expect(refused.body).toContain('value="Ring til os"');
    expect(refused.body).toContain('What to do');
    expect(await layoutOf('aabning')).toEqual({ version: 1, sections: [{ type: 'hero', heading: 'Velkommen' }] });
  });

  it('previews a draft with the storefront renderer, never cached or indexed, for signed-in people only', async () => {
    const preview = await page(t.app, manager, '/admin/pages/aabning/preview');
    expect(preview.response.statusCode).toBe(200);
    expect(preview.response.headers['cache-control']).toBe('no-store');
    expect(preview.response.headers['x-robots-tag']).toBe('noindex, nofollow, noarchive');
    expect(preview.response.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'self';.*frame-ancestors 'none'$/);
    expect(preview.response.body).toContain('<html lang="da">');
    expect(preview.response.body).toContain('<link rel="stylesheet" href="/assets/site.css">');
    expect(preview.response.body).toContain('<article class="page page-layout"><section class="hero"><div class="hero-text"><h1>Velkommen</h1>');
    expect(preview.response.body).toContain('<a href="/admin/pages/aabning">Back to the editor</a>');
    expect((await t.app.inject({ method: 'GET', url: '/info/aabning' })).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: '/admin/pages/aabning/preview' });
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toBe('/admin/login');
    expect((await page(t.app, manager, '/admin/pages/nowhere/preview')).response.body).toContain('No page with slug');
  });

  it('saves title, body and status, removes the layout, and deletes after a confirmation that Activity can revert', async () => {
    const edit = await page(t.app, manager, '/admin/pages/aabning');
    const saved = await post(t.app, manager, '/admin/pages/aabning', { ...formFields(edit.response.body, '/admin/pages/aabning'), status: 'published', title: 'Åbningstider i butikken' });
    expect(saved.statusCode).toBe(303);
    expect((await t.call('site.get_page', { slug: 'aabning' })).body.result.title).toBe('Åbningstider i butikken');
    const activity = await page(t.app, manager, '/admin/activity?target=aabning');
    expect(activity.response.body).toMatch(/<td data-label="Field" title="status">Status<\/td><td data-label="Before">draft<\/td><td data-label="After">published<\/td>/);

    const cleared = await post(t.app, manager, '/admin/pages/aabning/layout', { _csrf: edit.csrf ?? '', op: 'clear' });
    expect(cleared.headers.location).toBe('/admin/pages/aabning?done=cleared#layout-title');
    expect(await layoutOf('aabning')).toBeNull();

    const confirm = await page(t.app, manager, '/admin/pages/aabning/delete');
    expect(confirm.response.body).toContain('Delete this page?');
    expect((await post(t.app, manager, '/admin/pages/aabning/delete', { _csrf: confirm.csrf ?? '' })).statusCode).toBe(303);
    expect((await t.call('site.get_page', { slug: 'aabning' })).status).toBe(404);
    const [entry] = (await t.call('audit.list', { tool: 'pages.delete', limit: 1 }, master)).body.result;
    const revert = await page(t.app, manager, `/admin/activity/${entry.id}/revert`);
    expect((await post(t.app, manager, `/admin/activity/${entry.id}/revert`, { _csrf: revert.csrf ?? '' })).statusCode).toBe(303);
    expect((await t.call('site.get_page', { slug: 'aabning' })).body.result.title).toBe('Åbningstider i butikken');
  });

  it('shows a viewer no write forms, and refuses a forged layout by the tool scope check', async () => {
    const view = await page(t.app, viewer, '/admin/pages/om-os');
    expect(view.response.statusCode).toBe(200);
    expect(view.response.body).not.toContain('Save layout');
    expect(view.response.body).not.toContain('/delete');
    expect(view.response.body).toContain('/admin/pages/om-os/preview');
    expect((await page(t.app, viewer, '/admin/pages')).response.body).not.toContain('New page');
    const before = await layoutOf('om-os');
    const forged = await post(t.app, viewer, '/admin/pages/om-os/layout', { _csrf: view.csrf ?? '', 'layout.sections.0.type': 'text', 'layout.sections.0.body': 'Hacked', op: 'save' });
    expect(forged.statusCode).toBe(422);
    expect(forged.body).toContain('pages.set_layout needs scope pages:write');
    expect(await layoutOf('om-os')).toEqual(before);
  });
});
