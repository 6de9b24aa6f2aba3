import { describe, expect, it } from 'vitest';
import { addPerson } from '../admin/helpers.ts';
import { master } from '../helpers/fixtures.ts';
import { MISSING, WIDTHS, expectAccessible, expectNoHorizontalScroll, screenshot } from './chromium.ts';
import { consoleInBrowser } from './in-browser.ts';

const shop = consoleInBrowser(async (t) => {
  await addPerson(t.database.db, 'anna@shop.dk', 'manager');
  await t.call('settings.update', { currency: 'EUR' }, master);
});

describe.skipIf(MISSING)('Activity for a manager', () => {
  it('says in words why a currency change has no Revert, and its confirmation page offers no button', async () => {
    for (const viewport of WIDTHS) {
      const page = await shop.signedIn('anna@shop.dk', viewport);
      try {
        await page.goto(`${shop.origin()}/admin/activity?tool=settings.update`);
        const entry = page.locator('article.entry').first();
        expect(await entry.locator('h2').textContent()).toBe('Setting "Currency"');
        expect(await entry.textContent()).toContain('settings.update');
        expect(await entry.getByRole('link', { name: /Revert/ }).count()).toBe(0);
        expect(await entry.locator('.why-not').textContent()).toContain('only an owner can revert it');
        await expectAccessible(page, `activity for a manager at ${viewport.width}`);
        await expectNoHorizontalScroll(page, `activity for a manager at ${viewport.width}`);
        await screenshot(page, `admin-activity-manager-${viewport.width}`);

        const id = (await entry.getAttribute('aria-labelledby'))?.slice(2) ?? '';
        const confirm = await page.goto(`${shop.origin()}/admin/activity/${id}/revert`);
        expect(confirm?.status()).toBe(403);
        expect(await page.getByRole('alert').textContent()).toContain('only an owner can revert it');
        expect(await page.getByRole('button', { name: 'Revert the change' }).count()).toBe(0);
        await expectAccessible(page, `revert refused at ${viewport.width}`);
        await screenshot(page, `admin-revert-refused-${viewport.width}`);
      } finally {
        await page.close();
      }
    }
  });
});
