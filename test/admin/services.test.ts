import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { page, post, staffCookie } from './helpers.ts';

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

const FULL = {
  title: 'Glasskift', shortDescription: 'Vi lodder og retter dit stel.', priceString: 'Fra 250 kr.',
  heroImage: 'https://images.example/stel.jpg', body: '## Sådan\n\nIndlever dit stel i butikken.', features: 'Samme uge\n\nAlle mærker',
  navOrder: '30', status: 'draft', showInNav: 'on',
};

describe('the services page', () => {
  it('lists the offerings with their slug, price text, status and position', async () => {
    const list = await page(t.app, manager, '/admin/services');
    expect(list.response.statusCode).toBe(200);
    expect(list.response.body).toMatch(/<a href="\/admin\/services\/synsproeve">[^<]+<\/a><\/td><td data-label="Slug">synsproeve<\/td>/);
    expect(list.response.body).toContain('New service');
  });

  it('creates an offering with every field services.create takes, and edits it with services.update', async () => {
    const form = await page(t.app, manager, '/admin/services/new');
    const made = await post(t.app, manager, '/admin/services/new', { _csrf: form.csrf ?? '', ...FULL, slug: '' });
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe('/admin/services/glasskift?done=created');
    const stored = (await t.call('services.get', { slug: 'glasskift' }, master)).body.result;
    expect(stored).toMatchObject({
      title: 'Glasskift', shortDescription: 'Vi lodder og retter dit stel.', priceString: 'Fra 250 kr.', heroImage: 'https://images.example/stel.jpg',
      features: ['Samme uge', 'Alle mærker'], navOrder: 30, status: 'draft', showInNav: true,
    });

    const edit = await page(t.app, manager, '/admin/services/glasskift?done=created');
    expect(edit.response.body).toContain('The service was created.');
    expect(edit.response.body).toMatch(/<textarea id="field-features" name="features">Samme uge\nAlle mærker<\/textarea>/);
    const saved = await post(t.app, manager, '/admin/services/glasskift', { _csrf: edit.csrf ?? '', ...FULL, status: 'published', priceString: 'Fra 275 kr.', showInNav: '' });
    expect(saved.statusCode).toBe(303);
    expect((await t.call('services.get', { slug: 'glasskift' }, master)).body.result).toMatchObject({ status: 'published', priceString: 'Fra 275 kr.', showInNav: false });
    const activity = await page(t.app, manager, '/admin/activity?target=glasskift');
    expect(activity.response.body).toMatch(/<td data-label="Field" title="priceString">Price string<\/td><td data-label="Before">Fra 250 kr.<\/td><td data-label="After">Fra 275 kr.<\/td>/);
  });

  it('shows a refused field next to the field and keeps what was typed', async () => {
    const edit = await page(t.app, manager, '/admin/services/glasskift');
    const refused = await post(t.app, manager, '/admin/services/glasskift', { _csrf: edit.csrf ?? '', ...FULL, heroImage: 'javascript:alert(1)', title: 'Ny titel' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/id="field-heroImage"[^>]*value="javascript:alert\(1\)"[^>]*aria-invalid="true"/);
    expect(refused.body).toContain('id="field-heroImage-error"');
    expect(refused.body).toContain('value="Ny titel"');
    expect(refused.body).toContain('What to do');
  });

  it('deletes an offering after a confirmation, and Activity brings it back', async () => {
    const confirm = await page(t.app, manager, '/admin/services/glasskift/delete');
    expect(confirm.response.body).toContain('Delete this service?');
    const deleted = await post(t.app, manager, '/admin/services/glasskift/delete', { _csrf: confirm.csrf ?? '' });
    expect(deleted.statusCode).toBe(303);
    expect((await t.call('services.get', { slug: 'glasskift' }, master)).status).toBe(404);
    const [entry] = (await t.call('audit.list', { tool: 'services.delete', limit: 1 }, master)).body.result;
    expect(entry).toMatchObject({ channel: 'admin', before: { slug: 'glasskift' }, after: null });
    const revert = await page(t.app, manager, `/admin/activity/${entry.id}/revert`);
    expect((await post(t.app, manager, `/admin/activity/${entry.id}/revert`, { _csrf: revert.csrf ?? '' })).statusCode).toBe(303);
    expect((await t.call('services.get', { slug: 'glasskift' }, master)).body.result.priceString).toBe('Fra 275 kr.');
  });

  it('shows a viewer no write controls, and refuses a forged write by the tool scope check', async () => {
    const view = await page(t.app, viewer, '/admin/services/synsproeve');
    expect(view.response.statusCode).toBe(200);
    expect(view.response.body).not.toContain('<button type="submit">Save</button>');
    expect(view.response.body).not.toContain('/delete');
    expect((await page(t.app, viewer, '/admin/services')).response.body).not.toContain('New service');
    const forged = await post(t.app, viewer, '/admin/services/synsproeve/delete', { _csrf: view.csrf ?? '' });
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('services.delete needs scope pages:write');
    expect((await t.call('services.get', { slug: 'synsproeve' }, master)).status).toBe(200);
  });
});
