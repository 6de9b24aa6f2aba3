import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { master } from '../helpers/fixtures.ts';
import { addPerson } from '../admin/helpers.ts';
import { MISSING, WIDTHS, expectAccessible, screenshot } from './chromium.ts';
import { appInBrowser } from './in-browser.ts';


const shop = appInBrowser({
  baseUrl: 'origin',
  setUp: async (t, origin) => {
    await seedDemoStore(t.database.db, { baseUrl: origin });
    await addPerson(t.database.db, 'anna@shop.dk', 'manager');
  },
});

function signedInAsAnna(viewport: { width: number; height: number } = WIDTHS[0]): Promise<Page> {
  return shop.signedIn('anna@shop.dk', viewport);
}

describe.skipIf(MISSING)('the content pages of the console in a browser', () => {
  it('creates a discount code and switches it off', async () => {
    const page = await signedInAsAnna();
    try {
      await page.getByRole('link', { name: 'Discounts' }).click();
      await page.getByRole('link', { name: 'New discount code' }).click();
      await page.getByLabel('Code').fill('browser10');
      await page.getByLabel('Kind').selectOption('fixed');
      await page.getByLabel(/^Value/).fill('10,00');
      await page.getByLabel(/^Valid through/).fill('2026-12-24');
      await page.getByLabel(/^Usage limit/).fill('5');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/\/admin\/discounts\/BROWSER10\?done=created/);
      expect(await page.getByRole('status').textContent()).toContain('The discount code was created.');
      expect(await page.locator('dl').textContent()).toContain('0 / 5');
      await page.getByRole('link', { name: 'Deactivate BROWSER10' }).click();
      await page.getByRole('button', { name: 'Deactivate' }).click();
      await page.waitForURL(/done=deactivated/);
      expect((await shop.app().call('discounts.get', { code: 'BROWSER10' }, master)).body.result).toMatchObject({ value: 1000, usageLimit: 5, active: false });
    } finally {
      await page.close();
    }
  });

  it('edits a page layout with plain forms and sees the change in the preview', async () => {
    const page = await signedInAsAnna();
    try {
      await page.goto(`${shop.origin()}/admin/pages/om-os`);
      await page.getByLabel('Section type').selectOption('image');
      await page.getByRole('button', { name: 'Add a section' }).click();
      expect(await page.getByRole('status').textContent()).toContain('not saved yet');
      const added = page.getByRole('group', { name: 'Section 5: image' });
      await added.getByLabel('Image URL').fill('/images/demo/aviator-classic.svg');
      await added.getByLabel(/^Image description/).fill('Aviator-briller i guld');
      await added.getByLabel('Caption').fill('Vores mest solgte stel');
      await page.getByRole('button', { name: 'Move up Section 5: image' }).click();
      await page.getByRole('group', { name: 'Section 1: hero' }).getByLabel('Heading', { exact: true }).fill('Briller med omtanke, siden 2012');
      await page.getByRole('button', { name: 'Save layout' }).first().click();
      await page.waitForURL(/done=layout/);
      const layout = (await shop.app().call('pages.get_layout', { slug: 'om-os' }, master)).body.result;
      expect(layout.sections.map((section: { type: string }) => section.type)).toEqual(['hero', 'text', 'columns', 'image', 'cta']);
      await page.getByRole('link', { name: 'Preview', exact: true }).click();
      await page.waitForURL(/\/admin\/pages\/om-os\/preview$/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Briller med omtanke, siden 2012');
      expect(await page.locator('figcaption').textContent()).toBe('Vores mest solgte stel');
      await expectAccessible(page, 'preview');
      await screenshot(page, 'admin-pages-preview-1440');
    } finally {
      await page.close();
    }
  });

  it('creates a service offering', async () => {
    const page = await signedInAsAnna();
    try {
      await page.goto(`${shop.origin()}/admin/services`);
      await page.getByRole('link', { name: 'New service' }).click();
      await page.getByLabel('Title', { exact: true }).fill('Glasskift');
      await page.getByLabel('Short description').fill('Nye glas i dit eget stel.');
      await page.getByLabel(/^Price/).fill('Fra 495 kr.');
      await page.getByLabel(/^Body/).fill('## Sådan\n\nVi skifter glassene på en uge.');
      await page.getByLabel(/^Features/).fill('En uge\nAlle styrker');
      await page.getByLabel('Position in the list').fill('40');
      await page.getByLabel('Show in navigation').check();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/\/admin\/services\/glasskift\?done=created/);
      expect((await shop.app().call('services.get', { slug: 'glasskift' }, master)).body.result).toMatchObject({
        title: 'Glasskift', features: ['En uge', 'Alle styrker'], navOrder: 40, showInNav: true, status: 'published',
      });
    } finally {
      await page.close();
    }
  });

  it('passes axe on every new page at 1440 and 375 px, without horizontal scrolling, and saves screenshots', async () => {
    const paths = ['/admin/discounts', '/admin/discounts/new', '/admin/discounts/SOMMER25', '/admin/discounts/SOMMER25/deactivate',
      '/admin/pages', '/admin/pages/new', '/admin/pages/om-os', '/admin/pages/om-os/delete', '/admin/pages/om-os/preview',
      '/admin/services', '/admin/services/new', '/admin/services/synsproeve', '/admin/services/synsproeve/delete'];
    for (const viewport of WIDTHS) {
      const page = await signedInAsAnna(viewport);
      try {
        for (const path of paths) {
          const response = await page.goto(`${shop.origin()}${path}`);
          expect(response?.status(), path).toBe(200);
          await expectAccessible(page, `${path} at ${viewport.width}`);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${path} at ${viewport.width}`).toBeLessThanOrEqual(0);
          await screenshot(page, `admin${path.replaceAll('/', '-').replace('-admin', '')}-${viewport.width}`);
        }
      } finally {
        await page.close();
      }
    }
  }, 180_000);
});
