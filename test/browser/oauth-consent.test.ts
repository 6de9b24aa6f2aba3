import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { MASTER_KEY } from '../helpers/app.ts';
import { callMcp } from '../helpers/oauth.ts';
import { MISSING, WIDTHS, expectAccessible, expectNoHorizontalScroll, screenshot } from './chromium.ts';
import { appInBrowser } from './in-browser.ts';

/**
 * The owner's side of OAuth for MCP connectors, in a real browser: the host sends them to the consent page,
 * they untick a scope, type the master key and approve, and the host receives a code that buys a token with
 * exactly the ticked scopes. Skipped like the other browser tests when chromium is missing (CI installs it).
 */
const CALLBACK = 'http://127.0.0.1:9/callback';
const LOGO = 'https://logos.example/assistant.svg';

/** A host's client metadata document, served on loopback (the shop reads it with the loopback switch on). */
let documentUrl = '';
const documentServer = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ client_id: documentUrl, client_name: 'Example Assistant', logo_uri: LOGO, redirect_uris: [CALLBACK] }));
});

const shop = appInBrowser({
  app: { env: { BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS: '1' } },
  baseUrl: 'origin',
  setUp: async () => {
    await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', resolve));
    documentUrl = `http://localhost:${(documentServer.address() as AddressInfo).port}/oauth/client.json`;
  },
});
afterAll(() => {
  if (documentServer.listening) documentServer.close();
});

async function registerClient(): Promise<string> {
  const response = await fetch(`${shop.origin()}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Chat Connector', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

describe.skipIf(MISSING)('OAuth consent in a browser', () => {
  it('ticks exactly the scopes asked for, lets the owner narrow or widen them and approve with the master key; the token holds exactly those', async () => {
    const clientId = await registerClient();
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code', client_id: clientId, redirect_uri: CALLBACK,
      scope: 'orders:read catalog:read discounts:read orders:write settings:write audit:revert',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
      state: 'browser', resource: `${shop.origin()}/api/mcp`,
    });
    const page = await shop.browser().newPage({ viewport: { width: 1000, height: 900 } });
    const errors: string[] = [];
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
    // The host's redirect target is not a real server: the browser hands the code over here.
    let callback: URL | undefined;
    await page.route(`${CALLBACK}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'connected' });
    });
    try {
      await page.goto(`${shop.origin()}/oauth/authorize?${query}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect Chat Connector?');
      // What was asked is ticked (a step-up asks for one scope more), nothing else; the scopes are grouped.
      expect(await page.locator('legend').allTextContents()).toEqual(['Read', 'Write', 'Administration']);
      for (const scope of ['orders:read', 'catalog:read', 'discounts:read', 'orders:write', 'settings:write', 'audit:revert']) {
        expect(await page.getByLabel(scope).isChecked(), scope).toBe(true);
      }
      for (const scope of ['customer:read', 'products:write', 'settings:read']) expect(await page.getByLabel(scope).isChecked(), scope).toBe(false);
      expect(await page.getByLabel('Master key').getAttribute('autocomplete')).toBe('off');
      for (const scope of ['discounts:read', 'settings:write', 'audit:revert']) await page.getByLabel(scope).uncheck();
      await page.getByLabel('Master key').fill(MASTER_KEY);
      await screenshot(page, 'oauth-consent');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(`${CALLBACK}**`, { timeout: 10_000 }).catch(async (error: unknown) => {
        throw new Error(`${String(error)} at ${page.url()}: ${await page.title()}: ${JSON.stringify((await page.locator("body").innerText()).slice(0, 400))}`);
      });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }

    expect(callback?.searchParams.get('state')).toBe('browser');
    const exchanged = await fetch(`${shop.origin()}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code', code: callback?.searchParams.get('code') ?? '', code_verifier: verifier,
        client_id: clientId, redirect_uri: CALLBACK, resource: `${shop.origin()}/api/mcp`,
      }),
    });
    const token = (await exchanged.json()) as { access_token: string; scope: string };
    expect(token.scope.split(' ').sort()).toEqual(['catalog:read', 'orders:read', 'orders:write']);
    // The token works where it was granted, /api/mcp, with exactly the ticked scopes.
    const listed = await callMcp(shop.origin(), token.access_token, 'orders.list');
    expect(listed.body.result.structuredContent).toBeDefined();
    expect((await callMcp(shop.origin(), token.access_token, 'discounts.list')).body.error.message).toContain('discounts:read');
  });

  it('shows a host named by its metadata document by the host it is served from, its name and its logo, at both widths', async () => {
    const query = new URLSearchParams({
      response_type: 'code', client_id: documentUrl, redirect_uri: CALLBACK, scope: 'orders:read',
      code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'), code_challenge_method: 'S256',
      state: 'document', resource: `${shop.origin()}/api/mcp`,
    });
    for (const viewport of WIDTHS) {
      const page = await shop.browser().newPage({ viewport });
      const errors: string[] = [];
      page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
      // The logo's https host is played by the browser: the page's CSP must let an https logo load.
      await page.route(`${LOGO}**`, (route) => route.fulfill({
        status: 200, contentType: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 56 56"><rect width="56" height="56" rx="12" fill="#3b5bdb"/><circle cx="28" cy="28" r="14" fill="#fff"/></svg>',
      }));
      try {
        const answer = await page.goto(`${shop.origin()}/oauth/authorize?${query}`);
        expect(answer?.status()).toBe(200);
        expect(await answer?.headerValue('content-security-policy')).toContain("img-src 'self' https:;");
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect Example Assistant?');
        const port = new URL(documentUrl).port;
        expect(await page.locator('.consent-host').textContent()).toBe(`localhost:${port} is asking to connect to this shop.`);
        const logo = page.getByRole('img', { name: 'Example Assistant logo' });
        expect(await logo.getAttribute('src')).toBe(LOGO);
        await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
        expect(await page.locator('main').textContent()).toContain(`described by the document at ${documentUrl}`);
        await expectNoHorizontalScroll(page, `consent ${viewport.width}`);
        await expectAccessible(page, `consent ${viewport.width}`);
        await screenshot(page, `oauth-consent-document-${viewport.width}`);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });
});
