import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteStaff } from '../../src/access/staff-invitations.ts';
import { listStaff } from '../../src/access/staff.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { PASSWORD, addPerson, page, post, sessionCookie, signIn, staffCookie } from './helpers.ts';

let t: TestApp;
let ownerCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  ownerCookie = await staffCookie(t, 'owner@shop.dk', 'owner');
});
afterAll(async () => t.close());

/** POSTs a form of `url`'s page with that page's CSRF token. */
async function submit(cookie: string, pageUrl: string, action: string, form: Record<string, string>) {
  const { csrf } = await page(t.app, cookie, pageUrl);
  return post(t.app, cookie, action, { _csrf: csrf ?? '', ...form });
}

function openLink(path: string, form?: Record<string, string>) {
  return form
    ? t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() })
    : t.app.inject({ method: 'GET', url: path });
}

async function auditOf(tool: string) {
  return (await t.call('audit.list', { tool }, master)).body.result as Array<{ channel: string; actor: { name: string }; targetType: string; before: unknown; after: unknown }>;
}

function idOf(body: string, email: string): string {
  const match = new RegExp(`action="/admin/staff/([^/]+)/role"><input type="hidden" name="_csrf" value="[^"]+"><label class="skip-link" for="role-[^"]+">Role of ${email.replace('.', '\\.')}`).exec(body);
  if (!match?.[1]) throw new Error(`no row for ${email}`);
  return match[1];
}

describe('the Staff page', () => {
  it('is for owners only, and in the navigation only for them', async () => {
    const manager = await staffCookie(t, 'manager@shop.dk', 'manager');
    const refused = await page(t.app, manager, '/admin/staff');
    expect(refused.response.statusCode).toBe(403);
    expect(refused.response.body).toContain('Only an owner manages staff.');
    expect(refused.response.body).not.toContain('href="/admin/staff"');
    expect((await page(t.app, ownerCookie, '/admin/overview')).response.body).toContain('<a href="/admin/staff">Staff</a>');
  });

  it('lists each person with role and last sign-in', async () => {
    await addPerson(t.database.db, 'never@shop.dk', 'viewer');
    const { response } = await page(t.app, ownerCookie, '/admin/staff');
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/owner@shop\.dk \(you\)<\/td>/);
    expect(response.body).toMatch(/never@shop\.dk<\/td>[\s\S]*?<option value="viewer" selected>viewer<\/option>[\s\S]*?Last signed in">Never</);
    expect(response.body).not.toMatch(/owner@shop\.dk \(you\)<\/td>[\s\S]*?Last signed in">Never</);
  });

  it('invites a person with a one-time link valid a day; they set a password and are signed in', async () => {
    const shown = await submit(ownerCookie, '/admin/staff', '/admin/staff/invite', { email: 'Ida@Shop.dk', role: 'manager' });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('it is shown only once');
    const link = /id="invitation-link" class="secret" readonly value="([^"]+)"/.exec(shown.body)?.[1] ?? '';
    expect(link).toMatch(new RegExp(`^${BASE_URL}/admin/invite/[A-Za-z0-9_-]{43}$`));
    const path = link.slice(BASE_URL.length);
    expect((await page(t.app, ownerCookie, '/admin/staff')).response.body).not.toContain(path);

    const form = await openLink(path);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Choose a password for ida@shop.dk (manager)');
    const short = await openLink(path, { password: 'short', confirm: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('A password needs at least 12 characters');
    const mismatch = await openLink(path, { password: PASSWORD, confirm: `${PASSWORD}!` });
    expect(mismatch.body).toContain('The two passwords are not the same.');

    const joined = await openLink(path, { password: PASSWORD, confirm: PASSWORD });
    expect(joined.statusCode).toBe(303);
    expect(joined.headers.location).toBe('/admin/overview');
    const cookie = sessionCookie(joined.headers['set-cookie']) ?? '';
    expect((await page(t.app, cookie, '/admin/overview')).response.body).toContain('Signed in as ida@shop.dk (manager)');
    expect((await signIn(t.app, 'ida@shop.dk')).response.headers.location).toBe('/admin/overview');

    const again = await openLink(path);
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('This invitation link was used already.');
    expect((await openLink(path, { password: PASSWORD, confirm: PASSWORD })).body).toContain('This invitation link was used already.');
    const [entry] = await auditOf('staff.invite');
    expect(entry).toMatchObject({ channel: 'admin', actor: { name: 'owner@shop.dk (owner)' }, targetType: 'staff', after: { email: 'ida@shop.dk', role: 'manager' } });
    expect(JSON.stringify(entry)).not.toContain(path.split('/').pop());
  });

  it('says plainly that an expired or unknown link opens nothing, and refuses inviting an existing account', async () => {
    const day = 24 * 60 * 60 * 1000;
    const old = await inviteStaff(t.database.db, { email: 'late@shop.dk', role: 'viewer' }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date(Date.now() - day - 1000), baseUrl: '' });
    const expired = await openLink(old.link);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This invitation link has expired.');
    expect(expired.body).toContain('Ask the shop owner for a new invitation link.');
    expect((await openLink('/admin/invite/not-a-token')).body).toContain('This invitation link is not right.');

    const taken = await submit(ownerCookie, '/admin/staff', '/admin/staff/invite', { email: 'never@shop.dk', role: 'viewer' });
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('never@shop.dk already has an account.');
    expect(taken.body).toContain('value="never@shop.dk"');
  });

  it('changes a role and removes a person through a confirmation page, audited', async () => {
    const listed = (await page(t.app, ownerCookie, '/admin/staff')).response.body;
    const id = idOf(listed, 'never@shop.dk');
    const changed = await submit(ownerCookie, '/admin/staff', `/admin/staff/${id}/role`, { role: 'manager' });
    expect(changed.body).toContain('never@shop.dk is now manager.');
    expect((await auditOf('staff.set-role'))[0]).toMatchObject({ before: { role: 'viewer' }, after: { role: 'manager' }, actor: { name: 'owner@shop.dk (owner)' } });

    const confirm = await page(t.app, ownerCookie, `/admin/staff/${id}/remove`);
    expect(confirm.response.body).toContain('Remove this person?');
    expect(confirm.response.body).toContain('never@shop.dk can no longer sign in');
    const removed = await post(t.app, ownerCookie, `/admin/staff/${id}/remove`, { _csrf: confirm.csrf ?? '' });
    expect(removed.body).toContain('never@shop.dk was removed.');
    expect((await listStaff(t.database.db)).map((member) => member.email)).not.toContain('never@shop.dk');
    expect((await auditOf('staff.remove'))[0]).toMatchObject({ before: { email: 'never@shop.dk' }, after: null });
  });

  it('refuses in plain words to demote or remove the last owner', async () => {
    const id = idOf((await page(t.app, ownerCookie, '/admin/staff')).response.body, 'owner@shop.dk');
    const demoted = await submit(ownerCookie, '/admin/staff', `/admin/staff/${id}/role`, { role: 'viewer' });
    expect(demoted.statusCode).toBe(422);
    expect(demoted.body).toContain('owner@shop.dk is the shop&#39;s only owner, so they cannot be made viewer');
    expect(demoted.body).toContain('Make another person owner first');
    const confirm = await page(t.app, ownerCookie, `/admin/staff/${id}/remove`);
    const removed = await post(t.app, ownerCookie, `/admin/staff/${id}/remove`, { _csrf: confirm.csrf ?? '' });
    expect(removed.statusCode).toBe(422);
    expect(removed.body).toContain('cannot be removed');
    expect((await listStaff(t.database.db)).find((member) => member.email === 'owner@shop.dk')?.role).toBe('owner');
  });

  it('gives the CLI the same commands: staff.invite and staff.set-role through the commands route', async () => {
    const headers = { authorization: `Bearer ${master.key}`, 'content-type': 'application/json' };
    const invited = await t.app.inject({ method: 'POST', url: '/api/v1/commands/staff.invite', headers, payload: { email: 'cli@shop.dk', role: 'viewer' } });
    expect(invited.statusCode).toBe(200);
    expect(invited.json().result).toMatchObject({ email: 'cli@shop.dk', role: 'viewer', link: expect.stringMatching(/\/admin\/invite\//) });
    const demote = await t.app.inject({ method: 'POST', url: '/api/v1/commands/staff.set-role', headers, payload: { email: 'owner@shop.dk', role: 'manager' } });
    expect(demote.statusCode).toBe(422);
    expect(demote.json()).toMatchObject({ code: 'last_owner' });
    const promoted = await t.app.inject({ method: 'POST', url: '/api/v1/commands/staff.set-role', headers, payload: { email: 'ida@shop.dk', role: 'owner' } });
    expect(promoted.json().result).toMatchObject({ email: 'ida@shop.dk', role: 'owner' });

    const added = await t.app.inject({ method: 'POST', url: '/api/v1/commands/staff.add', headers, payload: { email: 'old@shop.dk', role: 'viewer', password: PASSWORD } });
    expect(added.json().result).toMatchObject({ email: 'old@shop.dk', role: 'viewer', lastSignInAt: null });
    const removed = await t.app.inject({ method: 'POST', url: '/api/v1/commands/staff.remove', headers, payload: { email: 'old@shop.dk' } });
    expect(removed.json().result).toMatchObject({ email: 'old@shop.dk' });
    const [entry] = await auditOf('staff.add');
    expect(entry).toMatchObject({ actor: { name: 'master' }, after: { email: 'old@shop.dk', role: 'viewer' } });
    expect(JSON.stringify(await auditOf('staff.add'))).not.toMatch(/passwordHash|scrypt/);
  });
});
