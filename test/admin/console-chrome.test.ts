import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { page, staffCookie } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('the console before anyone can sign in', () => {
  it('says how the first owner is created while the shop has none', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/admin/login' });
    expect(login.statusCode).toBe(200);
    expect(login.body).toContain('This shop has no owner yet');
    expect(login.body).toContain('No shop owner yet');
    expect(login.body).toContain('butik staff add you@example.com --role owner');
  });

  it('leads /admin/ (trailing slash) to the console like /admin', async () => {
    for (const url of ['/admin', '/admin/']) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(303);
      expect(answer.headers.location, url).toBe('/admin/login');
    }
  });
});

describe('the console chrome', () => {
  it('links an icon it serves, so no page asks for /favicon.ico, and links to the shop', async () => {
    const cookie = await staffCookie(t, 'owner@shop.dk', 'owner');
    const login = await t.app.inject({ method: 'GET', url: '/admin/login' });
    expect(login.body).not.toContain('This shop has no owner yet');
    const overview = await page(t.app, cookie, '/admin/overview');
    expect(overview.response.body).toContain('<link rel="icon" href="/admin/assets/favicon.svg" type="image/svg+xml">');
    expect(overview.response.body).toMatch(/<nav class="main"[^>]*>.*<a href="\/">View the shop<\/a>/s);
    const icon = await t.app.inject({ method: 'GET', url: '/admin/assets/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });
});
