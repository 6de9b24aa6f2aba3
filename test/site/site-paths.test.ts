import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_PATHS } from '../../src/schema/layout.ts';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
});
afterAll(async () => { await t?.close(); });

/** A slug of the demo store for each path family, so every listed path can be fetched for real. */
const DEMO_SLUGS: Record<string, string> = {
  '/products/<slug>': 'skagen-round',
  '/categories/<slug>': 'solbriller',
  '/info/<slug>': 'levering',
  '/services/<slug>': 'synsproeve',
};

describe('SITE_PATHS, the paths layout links may name', () => {
  it.each(SITE_PATHS.map((path) => [path]))('%s is served by the site', async (path) => {
    const slug = DEMO_SLUGS[path];
    const url = slug === undefined ? path : path.replace('<slug>', slug);
    const response = await t.app.inject({ url });
    expect(response.statusCode, url).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^text\/html/);
  });
});
