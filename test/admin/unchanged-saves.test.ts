import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { formFields, page, post, demoShopSignedIn } from './helpers.ts';

let t: TestApp;
let owner = '';
beforeAll(async () => {
  ({ t, cookie: owner } = await demoShopSignedIn('olga@shop.dk', 'owner'));
  // Alt text and a source id on an image, and line breaks in text: what a careless save would lose or rewrite.
  await t.call('products.attach_image', { slug: 'aviator-classic', imageUrl: 'https://img.test/aviator-side.jpg', alt: 'Set fra siden', sourceId: 'cam-7' }, master);
  await t.call('services.update', { slug: 'synsproeve', patch: { body: 'Første linje.\n\nAnden linje.' } }, master);
});
afterAll(async () => t.close());

/** The record as its tool reads it, with everything the stored row holds that the tool does not show, from the audit log's view. */
const read = async (tool: string, input: Record<string, unknown>) => JSON.stringify((await t.call(tool, input, master)).body.result);
const auditCount = async () => (await t.call('audit.list', { limit: 200 }, master)).body.result.length as number;

/** Open the console page, send its form back exactly as rendered, and follow the redirect. */
async function saveUnchanged(url: string, action: string) {
  const opened = await page(t.app, owner, url);
  expect(opened.response.statusCode).toBe(200);
  const sent = await post(t.app, owner, action, formFields(opened.response.body, action));
  expect(sent.statusCode).toBe(303);
  return sent;
}

const FORMS: Array<{ name: string; url: string; action: string; tool: string; input: Record<string, unknown> }> = [
  { name: 'a product with alt text on an image', url: '/admin/products/aviator-classic', action: '/admin/products/aviator-classic', tool: 'products.get', input: { slug: 'aviator-classic' } },
  { name: 'a service', url: '/admin/services/synsproeve', action: '/admin/services/synsproeve', tool: 'services.get', input: { slug: 'synsproeve' } },
  { name: 'a category', url: '/admin/categories?edit=solbriller', action: '/admin/categories', tool: 'categories.list', input: { includeEmpty: true } },
  { name: 'a page\'s details', url: '/admin/pages/om-os', action: '/admin/pages/om-os', tool: 'pages.list', input: {} },
  { name: 'a page\'s layout', url: '/admin/pages/om-os', action: '/admin/pages/om-os/layout', tool: 'pages.get_layout', input: { slug: 'om-os' } },
  { name: 'the shop settings', url: '/admin/settings', action: '/admin/settings', tool: 'settings.get', input: {} },
];

describe('saving a console edit form unchanged', () => {
  for (const form of FORMS) {
    it(`leaves ${form.name} byte-identical and writes nothing to the audit log`, async () => {
      const before = await read(form.tool, form.input);
      const entries = await auditCount();
      await saveUnchanged(form.url, form.action);
      expect(await read(form.tool, form.input)).toBe(before);
      expect(await auditCount()).toBe(entries);
    });
  }
});
