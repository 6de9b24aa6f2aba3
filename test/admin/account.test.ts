import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { PASSWORD, addPerson, page, post, sessionCookie, signIn } from './helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => t.close());

const NEW_PASSWORD = 'a brand new passphrase here';

describe('changing one\'s own password at /admin/account', () => {
  it('is linked from the header for any role and refuses a wrong current password or a mistyped new one', async () => {
    await addPerson(t.database.db, 'viewer@shop.dk', 'viewer');
    const cookie = (await signIn(t.app, 'viewer@shop.dk')).cookie ?? '';
    const form = await page(t.app, cookie, '/admin/account');
    expect(form.response.statusCode).toBe(200);
    expect(form.response.body).toContain('<a href="/admin/account" aria-current="page">Your account</a>');
    expect(form.response.body).toContain('<label for="field-current">Current password</label>');

    const wrong = await post(t.app, cookie, '/admin/account', { _csrf: form.csrf ?? '', current: 'not my password at all', next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toContain('The current password is not right.');
    const mismatch = await post(t.app, cookie, '/admin/account', { _csrf: form.csrf ?? '', current: PASSWORD, next: NEW_PASSWORD, confirm: 'something else entirely' });
    expect(mismatch.body).toContain('The two new passwords are not the same.');
    const short = await post(t.app, cookie, '/admin/account', { _csrf: form.csrf ?? '', current: PASSWORD, next: 'short', confirm: 'short' });
    expect(short.body).toContain('A password needs at least 12 characters');
    expect((await signIn(t.app, 'viewer@shop.dk')).response.headers.location).toBe('/admin/overview');
  });

  it('on success ends the person\'s other sessions, rotates the current one and takes the new password', async () => {
    await addPerson(t.database.db, 'manager@shop.dk', 'manager');
    const other = (await signIn(t.app, 'manager@shop.dk')).cookie ?? '';
    const cookie = (await signIn(t.app, 'manager@shop.dk')).cookie ?? '';
    const form = await page(t.app, cookie, '/admin/account');
    const changed = await post(t.app, cookie, '/admin/account', { _csrf: form.csrf ?? '', current: PASSWORD, next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(changed.statusCode).toBe(303);
    expect(changed.headers.location).toBe('/admin/account?changed=1');
    const rotated = sessionCookie(changed.headers['set-cookie']) ?? '';
    expect(rotated).not.toBe('');
    expect(rotated).not.toBe(cookie);

    const after = await page(t.app, rotated, '/admin/account?changed=1');
    expect(after.response.body).toContain('Your password was changed. Every other session of yours has ended.');
    for (const gone of [other, cookie]) {
      const response = await t.app.inject({ method: 'GET', url: '/admin/overview', headers: { cookie: gone } });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/admin/login');
    }
    expect((await signIn(t.app, 'manager@shop.dk')).response.statusCode).toBe(401);
    expect((await signIn(t.app, 'manager@shop.dk', NEW_PASSWORD)).response.headers.location).toBe('/admin/overview');
  });
});
