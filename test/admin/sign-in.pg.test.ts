import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { addPerson, page, post, signIn } from './helpers.ts';

let t: TestApp;
let now = new Date('2026-11-20T10:00:00Z');

beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
  await addPerson(t.database.db, 'anna@shop.dk', 'manager');
  await addPerson(t.database.db, 'olga@shop.dk', 'owner');
  await addPerson(t.database.db, 'lock@shop.dk', 'viewer');
});
afterAll(async () => t.close());

describe('signing in to the console', () => {
  it('sends /admin to a sign-in page with labelled fields, a Sign in button and strict headers', async () => {
    const root = await t.app.inject({ method: 'GET', url: '/admin' });
    expect(root.statusCode).toBe(303);
    expect(root.headers.location).toBe('/admin/login');
    const login = await t.app.inject({ method: 'GET', url: '/admin/login' });
    expect(login.statusCode).toBe(200);
    expect(login.body).toContain('<label for="email">Email</label>');
    expect(login.body).toContain('<label for="password">Password</label>');
    expect(login.body).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(login.headers['cache-control']).toBe('no-store');
    expect(login.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(login.headers['content-security-policy']).toContain("default-src 'none'");
    expect(login.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(login.headers['set-cookie']).toBeUndefined();
  });

  it('answers an unknown e-mail exactly as a wrong password', async () => {
    const wrong = await signIn(t.app, 'anna@shop.dk', 'not the password at all');
    const unknown = await signIn(t.app, 'nobody@shop.dk', 'not the password at all');
    expect(wrong.response.statusCode).toBe(401);
    expect(unknown.response.statusCode).toBe(401);
    const message = (body: string) => /<div class="problem"[^]*?<\/div>/.exec(body)?.[0];
    expect(message(wrong.response.body)).toBe(message(unknown.response.body));
    expect(wrong.cookie).toBeUndefined();
  });

  it('sets an HttpOnly, SameSite=Lax session cookie on /admin and rotates the session id at every sign-in', async () => {
    const first = await signIn(t.app, 'anna@shop.dk');
    expect(first.response.statusCode).toBe(303);
    expect(first.response.headers.location).toBe('/admin/overview');
    const line = [first.response.headers['set-cookie']].flat().map(String).find((l) => l.startsWith('butik_admin='));
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\/admin/);
    expect(line).not.toMatch(/Secure/);
    if (!first.cookie) throw new Error('no cookie');
    const again = await t.app.inject({
      method: 'POST', url: '/admin/login', headers: { cookie: first.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: 'anna@shop.dk', password: 'correct horse battery staple' }).toString(),
    });
    const second = [again.headers['set-cookie']].flat().map(String).find((l) => l.startsWith('butik_admin='))?.split(';')[0];
    expect(second).toBeDefined();
    expect(second).not.toBe(first.cookie);
    const old = await page(t.app, first.cookie, '/admin/overview');
    expect(old.response.statusCode).toBe(303);
  });

  it('ends a session after the idle timeout and keeps it while it is used', async () => {
    const { cookie } = await signIn(t.app, 'anna@shop.dk');
    if (!cookie) throw new Error('no cookie');
    now = new Date(now.getTime() + 7 * 3600_000);
    expect((await page(t.app, cookie, '/admin/overview')).response.statusCode).toBe(200);
    now = new Date(now.getTime() + 7 * 3600_000);
    expect((await page(t.app, cookie, '/admin/overview')).response.statusCode).toBe(200);
    now = new Date(now.getTime() + 8 * 3600_000 + 60_000);
    const expired = await page(t.app, cookie, '/admin/overview');
    expect(expired.response.statusCode).toBe(303);
    expect(expired.response.headers.location).toBe('/admin/login');
  });

  it('refuses a form without its CSRF token and signs out everywhere with one', async () => {
    const a = await signIn(t.app, 'olga@shop.dk');
    const b = await signIn(t.app, 'olga@shop.dk');
    if (!a.cookie || !b.cookie) throw new Error('no cookie');
    const overview = await page(t.app, a.cookie, '/admin/overview');
    const forged = await post(t.app, overview.cookie, '/admin/logout?everywhere=1', {});
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('The form has expired');
    expect((await page(t.app, b.cookie, '/admin/overview')).response.statusCode).toBe(200);
    const out = await post(t.app, overview.cookie, '/admin/logout?everywhere=1', { _csrf: overview.csrf ?? '' });
    expect(out.statusCode).toBe(303);
    expect((await page(t.app, b.cookie, '/admin/overview')).response.statusCode).toBe(303);
  });

  it('answers 429 after five failed sign-ins from one address', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await signIn(t.app, `guess${attempt}@shop.dk`, 'wrong password number x', {}, '10.9.9.9');
    }
    const locked = await signIn(t.app, 'anna@shop.dk', undefined, {}, '10.9.9.9');
    expect(locked.response.statusCode).toBe(429);
    expect(locked.response.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('answers 429 after five failed sign-ins of one account within fifteen minutes, even with the right password', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await signIn(t.app, 'lock@shop.dk', 'wrong password number x', {}, `10.0.0.${attempt}`)).response.statusCode).toBe(401);
    }
    const locked = await signIn(t.app, 'lock@shop.dk', undefined, {}, '10.0.1.1');
    expect(locked.response.statusCode).toBe(429);
    expect(locked.response.body).toContain('Too many failed sign-ins');
    expect(locked.cookie).toBeUndefined();
  });

  it('checks only five of sixty parallel wrong passwords for one account and refuses the right one sent with them', async () => {
    await addPerson(t.database.db, 'race@shop.dk', 'owner');
    const wrong = Array.from({ length: 60 }, (_, i) => signIn(t.app, 'race@shop.dk', 'wrong password number x', {}, `10.3.0.${i}`));
    const right = signIn(t.app, 'race@shop.dk', undefined, {}, '10.3.1.1');
    const answers = await Promise.all([...wrong, right]);
    expect(answers.filter((a) => a.response.statusCode === 401)).toHaveLength(5);
    expect(answers.filter((a) => a.response.statusCode === 429)).toHaveLength(56);
    const last = answers.at(-1);
    expect(last?.response.statusCode).toBe(429);
    expect(last?.response.body).toContain('Too many failed sign-ins');
    expect(last?.cookie).toBeUndefined();
  });

  it('refuses a sign-in posted from another site (login CSRF) and signs in from its own page', async () => {
    const foreign = await signIn(t.app, 'anna@shop.dk', undefined, { origin: 'https://evil.example' }, '10.4.0.1');
    const crossSite = await signIn(t.app, 'anna@shop.dk', undefined, { 'sec-fetch-site': 'cross-site' }, '10.4.0.2');
    const opaque = await signIn(t.app, 'anna@shop.dk', undefined, { origin: 'null' }, '10.4.0.3');
    for (const refused of [foreign, crossSite, opaque]) {
      expect(refused.response.statusCode).toBe(403);
      expect(refused.response.body).toContain('This form was not sent from a page of this console');
      expect(refused.cookie).toBeUndefined();
    }
    const base = t.app.butik.baseUrl;
    const ok = await signIn(t.app, 'anna@shop.dk', undefined, { origin: new URL(base).origin, 'sec-fetch-site': 'same-origin' }, '10.4.0.4');
    expect(ok.response.statusCode).toBe(303);
    expect(ok.cookie).toBeDefined();
  });
});

describe('the session cookie behind https', () => {
  it('is Secure when BASE_URL is https', async () => {
    const https = await createTestApp({ baseUrl: 'https://shop.example', env: { BUTIK_TRUST_PROXY: 'true' } });
    try {
      await addPerson(https.database.db, 'anna@shop.dk', 'viewer');
      const { response } = await signIn(https.app, 'anna@shop.dk', undefined, { 'x-forwarded-proto': 'https' });
      const line = [response.headers['set-cookie']].flat().map(String).find((l) => l.startsWith('butik_admin='));
      expect(line).toMatch(/; Secure/);
    } finally {
      await https.close();
    }
  });
});

describe.skipIf(!process.env.REDIS_URL)('failed sign-ins over Redis', () => {
  it('are counted across instances that share a Redis', async () => {
    const env = { REDIS_URL: process.env.REDIS_URL ?? '', BUTIK_REDIS_PREFIX: `signin-test-${Date.now()}` };
    const first = await createTestApp({ env });
    const second = await createTestApp({ env });
    try {
      await addPerson(second.database.db, 'anna@shop.dk', 'viewer');
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await signIn(first.app, 'anna@shop.dk', 'wrong password number x', {}, `10.1.0.${attempt}`)).response.statusCode).toBe(401);
      }
      expect((await signIn(second.app, 'anna@shop.dk', undefined, {}, '10.1.1.1')).response.statusCode).toBe(429);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
