import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { PASSWORD } from '../admin/helpers.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { MISSING, WIDTHS, launchChromium } from './chromium.ts';

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
 * The set-up every console browser test file shares: one app listening on a loopback port and one Chromium for
 * the file, started in its beforeAll (after `setUp` fills the shop) and closed in its afterAll; nothing starts
 * where Debian's chromium is missing, since the file's tests are skipped then.
 */
export function consoleInBrowser(setUp: (t: TestApp, origin: string) => Promise<void> = async () => {}) {
  let t: TestApp | undefined;
  let browser: Browser | undefined;
  let origin = '';
  beforeAll(async () => {
    if (MISSING) return;
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    // BASE_URL stays the test app's, so answers that name the shop (an approval's url) read as everywhere else.
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await setUp(t, origin);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await t?.close();
    }
  });
  return {
    app(): TestApp {
      if (!t) throw new Error('no app');
      return t;
    },
    origin: () => origin,
    browser(): Browser {
      if (!browser) throw new Error('no browser');
      return browser;
    },
    /** A new browser context signed in to the console as `email`. */
    signedIn(email: string, viewport?: Viewport): Promise<Page> {
      if (!browser) throw new Error('no browser');
      return signedInPage(browser, origin, email, viewport);
    },
  };
}
