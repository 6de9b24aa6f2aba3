import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSetupToken } from '../../src/access/staff-setup.ts';
import { listStaff } from '../../src/access/staff.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { PASSWORD, page, sessionCookie } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

function submit(form: Record<string, string>, ip = '127.0.0.1') {
  return t.app.inject({
    method: 'POST', url: '/admin/setup', remoteAddress: ip, headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

describe('the one-time setup link for the first owner', () => {
  it('shows the form, keeps the link through a typo, creates the owner once, signs them in and refuses the link after', async () => {
    const stale = await issueSetupToken(t.database.db, new Date(Date.now() - 2 * 60 * 60 * 1000));
    expect((await t.app.inject({ method: 'GET', url: `/admin/setup?token=${stale ?? ''}` })).statusCode).toBe(404);
    const token = await issueSetupToken(t.database.db, new Date());
    if (!token) throw new Error('a shop without an owner gets a setup token');
    const form = await t.app.inject({ method: 'GET', url: `/admin/setup?token=${token}` });
    expect(form.statusCode).toBe(200);
    expect(form.headers['cache-control']).toBe('no-store');
    expect(form.body).toContain('<label for="field-email">Email</label>');
    expect(form.body).toContain(`name="token" value="${token}"`);

    const short = await submit({ token, email: 'owner@shop.dk', password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toMatch(/id="field-password-error">A password needs at least 12 characters/);
    expect(short.body).toContain('value="owner@shop.dk"');

    const created = await submit({ token, email: 'Owner@Shop.dk', password: PASSWORD });
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe('/admin/overview');
    const cookie = sessionCookie(created.headers['set-cookie']);
    if (!cookie) throw new Error('the new owner is signed in');
    const overview = await page(t.app, cookie, '/admin/overview');
    expect(overview.response.body).toContain('owner@shop.dk (owner)');
    expect((await listStaff(t.database.db)).map((member) => `${member.email} ${member.role}`)).toEqual(['owner@shop.dk owner']);

    const again = await submit({ token, email: 'mallory@shop.dk', password: PASSWORD });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain('This setup link was used already');
    expect(again.body).toContain('butik staff add');
    expect((await t.app.inject({ method: 'GET', url: `/admin/setup?token=${token}` })).statusCode).toBe(404);
    expect(await listStaff(t.database.db)).toHaveLength(1);
  });

  it('is issued no more once an owner exists, and an unknown token opens nothing', async () => {
    expect(await issueSetupToken(t.database.db, new Date())).toBeUndefined();
    const unknown = await t.app.inject({ method: 'GET', url: '/admin/setup?token=not-a-token', remoteAddress: '10.0.0.9' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).not.toContain('name="password"');
  });
});

describe('two setup links used at the same moment', () => {
  it('create exactly one first owner, as two instances sharing the database would', async () => {
    const other = await createTestApp();
    try {
      const first = await issueSetupToken(other.database.db, new Date());
      const second = await issueSetupToken(other.database.db, new Date());
      const answers = await Promise.all([
        other.app.inject({ method: 'POST', url: '/admin/setup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token: first ?? '', email: 'a@shop.dk', password: PASSWORD }).toString() }),
        other.app.inject({ method: 'POST', url: '/admin/setup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token: second ?? '', email: 'b@shop.dk', password: PASSWORD }).toString() }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([303, 404]);
      expect(await listStaff(other.database.db)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
