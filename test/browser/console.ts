import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { PASSWORD } from '../admin/helpers.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const WIDTHS = [{ width: 1440, height: 900 }, { width: 375, height: 812 }] as const;

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

/** axe-core in the page: no serious or critical violation. The console's CSP forbids inline scripts, so it is evaluated. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
    const result = await axe.run();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
  });
  expect(violations, name).toEqual([]);
}
