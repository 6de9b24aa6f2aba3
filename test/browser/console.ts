import type { Browser, Page } from 'playwright-core';
import { PASSWORD } from '../admin/helpers.ts';
import { WIDTHS } from './chromium.ts';


/** A fresh browser context signed in to the console as `email`. */
export async function signedInPage(browser: Browser, origin: string, email: string, viewport: { width: number; height: number } = WIDTHS[0]): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(`${origin}/admin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/admin/overview`);
  return page;
}

