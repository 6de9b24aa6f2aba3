import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

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
