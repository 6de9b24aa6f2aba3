import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { PASSWORD } from '../admin/helpers.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { MISSING, WIDTHS, launchChromium } from './chromium.ts';

type AppOptions = NonNullable<Parameters<typeof createTestApp>[0]>;

type Viewport = { width: number; height: number };

/** A fresh browser context signed in to the console as `email`. */
export async function signedInPage(browser: Browser, origin: string, email: string, viewport: Viewport = WIDTHS[0]): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(`${origin}/admin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/admin/overview`);
  return page;
}

/**
 * The set-up every browser test file shares: one app listening on a loopback port and one Chromium for the
 * file, started in its beforeAll (after `setUp` fills the shop) and closed in its afterAll; nothing starts where
 * Debian's chromium is missing, since the file's tests are skipped then.
 *
 * `baseUrl: 'origin'` makes the listening address the shop's BASE_URL, for pages whose links and redirects must
 * lead back to it in the browser (the storefront, checkout, OAuth); the console's tests keep the test app's own
 * BASE_URL, so answers that name the shop (an approval's url) read as everywhere else.
 */
export function appInBrowser(options: {
  app?: AppOptions;
  baseUrl?: 'origin' | 'test';
  setUp?: (t: TestApp, origin: string) => Promise<unknown>;
} = {}) {
  let t: TestApp | undefined;
  let browser: Browser | undefined;
  let origin = '';
  beforeAll(async () => {
    if (MISSING) return;
    t = await createTestApp(options.app ?? {});
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    if (options.baseUrl === 'origin') t.app.setBaseUrl(origin);
    await options.setUp?.(t, origin);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await t?.close();
    }
  });
  const running = (): Browser => {
    if (!browser) throw new Error('no browser');
    return browser;
  };
  return {
    app(): TestApp {
      if (!t) throw new Error('no app');
      return t;
    },
    origin: () => origin,
    browser: running,
    /** A page in a fresh browser context (its own cookies), at a viewport and locale. */
    async newPage(viewport: Viewport = WIDTHS[0], locale = 'en-GB'): Promise<Page> {
      return (await running().newContext({ viewport, locale })).newPage();
    },
    /** A new browser context signed in to the console as `email`. */
    signedIn(email: string, viewport?: Viewport): Promise<Page> {
      return signedInPage(running(), origin, email, viewport);
    },
  };
}

/** The console's browser tests: the shop filled by `setUp`, its BASE_URL the test app's. */
export function consoleInBrowser(setUp?: (t: TestApp, origin: string) => Promise<void>) {
  return appInBrowser(setUp ? { setUp } : {});
}
