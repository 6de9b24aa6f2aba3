import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Frame, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's chromium, driven by playwright-core (no browser download). */
export const CHROMIUM = '/usr/bin/chromium';
/** Screenshots go here, for people to look at after a run. */
export const ARTIFACTS = join(tmpdir(), 'butik-artifacts');

/**
 * Without chromium a developer's `npm test` skips the browser tests with one line saying how to get it; CI
 * installs it (test/browser/ensure-chromium.sh), so there a missing browser fails the run instead of
 * leaving the pages untested.
 */
export const MISSING = !existsSync(CHROMIUM);
if (MISSING && process.env.CI) {
  throw new Error(`${CHROMIUM} is missing on CI: run test/browser/ensure-chromium.sh (as root) before the suite.`);
}
if (MISSING) {
  console.warn(`browser tests skipped: ${CHROMIUM} is missing; install it with "sudo apt-get install chromium" (Debian/Ubuntu).`);
}

export function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Without the networking flags chromium reaches for Google's hosts, which this machine refuses.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The two widths every page is looked at: a desktop and a small phone. */
export const WIDTHS = [{ width: 1440, height: 900 }, { width: 375, height: 812 }] as const;

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core in the page (or in one frame: an MCP Apps view), evaluated over CDP since no page here admits inline
 * script: no serious or critical violation.
 */
export async function expectAccessible(page: Page | Frame, name: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
    const result = await axe.run();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
  });
  expect(violations, name).toEqual([]);
}

export async function expectNoHorizontalScroll(page: Page, name: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name}: horizontal scrolling`).toBeLessThanOrEqual(0);
}

/** What every page of a browser test must be: accessible (axe-core) and without horizontal scrolling. */
export async function expectUsable(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await expectNoHorizontalScroll(page, name);
}
