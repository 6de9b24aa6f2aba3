import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CALLBACK, register } from '../helpers/oauth.ts';
import { MISSING, WIDTHS, expectUsable, screenshot } from './chromium.ts';
import { appInBrowser } from './in-browser.ts';

/**
 * A buyer's side of UCP identity linking in a real browser: the platform sends them to Butik, they create an
 * account, sign in on the link page, untick one thing and approve; the platform's code buys a token with exactly
 * what stayed ticked. Each page passes axe at 1440 and 375 px without horizontal scrolling, with screenshots.
 */

const shop = appInBrowser({ app: { env: { BUTIK_UCP_MODE: 'test' } }, baseUrl: 'origin' });

describe.skipIf(MISSING)('UCP identity linking in a browser', () => {
  for (const viewport of WIDTHS) {
    it(`signs up, signs in and consents on accessible pages at ${viewport.width} px; the token holds what stayed ticked`, async () => {
      const registered = await register(shop.origin(), { client_name: 'Shopping Agent' });
      const clientId = ((await registered.json()) as { client_id: string }).client_id;
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({
        response_type: 'code', client_id: clientId, redirect_uri: CALLBACK,
        scope: 'dev.ucp.shopping.checkout:manage dev.ucp.shopping.order:read',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', state: 'browser',
      });
      const page = await shop.newPage(viewport);
      const errors: string[] = [];
      page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
      let callback: URL | undefined;
      await page.route(`${CALLBACK}**`, async (route) => {
        callback = new URL(route.request().url());
        await route.fulfill({ status: 200, contentType: 'text/plain', body: 'linked' });
      });
      const email = `buyer${viewport.width}@example.com`;
      try {
        await page.goto(`${shop.origin()}/oauth/authorize?${query}`);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Forbind din konto med Shopping Agent?');
        await expectUsable(page, `link page at ${viewport.width}`);
        await screenshot(page, `ucp-link-${viewport.width}`);

        await page.getByRole('link', { name: 'Opret en konto' }).click();
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Opret en konto');
        await expectUsable(page, `sign-up page at ${viewport.width}`);
        await screenshot(page, `ucp-sign-up-${viewport.width}`);
        await page.getByLabel('E-mail').fill(email);
        await page.getByLabel(/Adgangskode/).fill('a long enough password');
        await page.getByRole('button', { name: 'Opret konto' }).click();

        await expect.poll(() => page.getByRole('status').textContent()).toContain('Din konto er oprettet');
        await page.getByLabel('Se dine ordrer og deres status.').uncheck();
        await page.getByLabel('E-mail').fill(email);
        await page.getByLabel('Adgangskode').fill('a long enough password');
        await screenshot(page, `ucp-link-filled-${viewport.width}`);
        await page.getByRole('button', { name: 'Log ind og forbind' }).click();
        await page.waitForURL(`${CALLBACK}**`, { timeout: 10_000 });
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }

      expect(callback?.searchParams.get('iss')).toBe(shop.origin());
      const exchanged = await fetch(`${shop.origin()}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code', code: callback?.searchParams.get('code') ?? '', code_verifier: verifier, client_id: clientId, redirect_uri: CALLBACK,
        }),
      });
      expect(exchanged.status).toBe(200);
      expect(((await exchanged.json()) as { scope: string }).scope).toBe('dev.ucp.shopping.checkout:manage');
    }, 60_000);
  }
});
