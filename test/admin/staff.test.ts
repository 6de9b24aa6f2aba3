import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_LIFETIME_MS, inviteStaff } from '../../src/access/staff-invitations.ts';
import { formatDate } from '../../src/admin/format.ts';
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
    expect(response.body).toContain('<h2 id="pending">Waiting invitations</h2>');
    expect(response.body).toContain('No invitation is waiting.');
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
    expect(expired.body).toContain('<h1>This invitation link does not work</h1>');
    expect(expired.body).toContain('This invitation is no longer valid: its link worked for 24 hours, and that time is over.');
    expect(expired.body).toContain('Ask the shop owner for a new invitation link.');
    // An expired invitation is not listed as waiting: nothing is left to withdraw, and inviting again is the way on.
    expect((await page(t.app, ownerCookie, '/admin/staff')).response.body).not.toContain('late@shop.dk');
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

/** The waiting invitations' table of the Staff page, as rendered. */
async function waitingTable(): Promise<string> {
  const body = (await page(t.app, ownerCookie, '/admin/staff')).response.body;
  return /<h2 id="pending">[\s\S]*?<\/section>/.exec(body)?.[0] ?? '';
}

function withdrawPathOf(table: string, email: string): string {
  const match = new RegExp(`href="(/admin/staff/invitations/[^"]+/withdraw)">Withdraw<span class="skip-link"> the invitation for ${email.replace('.', '\\.')}<`).exec(table);
  if (!match?.[1]) throw new Error(`no waiting invitation for ${email}`);
  return match[1];
}

const linkIn = (body: string) => (/id="invitation-link" class="secret" readonly value="([^"]+)"/.exec(body)?.[1] ?? '').slice(BASE_URL.length);

describe('waiting invitations', () => {
  it('are listed with e-mail, role, who invited and when the link expires', async () => {
    const before = Date.now();
    await submit(ownerCookie, '/admin/staff', '/admin/staff/invite', { email: 'wait@shop.dk', role: 'viewer' });
    const table = await waitingTable();
    expect(table).toContain('<th scope="col">Invited by</th><th scope="col">Expires</th>');
    const row = /<tr><td data-label="E-mail">wait@shop\.dk<\/td>[\s\S]*?<\/tr>/.exec(table)?.[0] ?? '';
    expect(row).toContain('<td data-label="Role">viewer</td>');
    expect(row).toContain('<td data-label="Invited by">owner@shop.dk (owner)</td>');
    const expires = /<td data-label="Expires">([^<]+)<\/td>/.exec(row)?.[1] ?? '';
    // A day after the invitation, to the minute in the shop's time zone (the minute may turn while the test runs).
    const shown = (at: number) => formatDate(new Date(at + INVITATION_LIFETIME_MS), t.config.admin.timeZone);
    expect([shown(before), shown(Date.now())]).toContain(expires);
  });

  it('replaces the earlier link when the same e-mail is invited again, and says so', async () => {
    const first = linkIn((await submit(ownerCookie, '/admin/staff', '/admin/staff/invite', { email: 'twice@shop.dk', role: 'viewer' })).body);
    const again = await submit(ownerCookie, '/admin/staff', '/admin/staff/invite', { email: 'twice@shop.dk', role: 'manager' });
    expect(again.body).toContain('A link made earlier for this e-mail no longer works: only this one does.');
    const second = linkIn(again.body);
    const table = await waitingTable();
    expect(table.match(/twice@shop\.dk<\/td>/g)).toHaveLength(1);
    expect(table).toMatch(/twice@shop\.dk<\/td><td data-label="Role">manager<\/td>/);

    const old = await openLink(first);
    expect(old.statusCode).toBe(410);
    expect(old.body).toContain('This invitation is no longer valid: the shop owner withdrew it, or made a newer link for the same e-mail.');
    expect(old.body).toContain('Ask the shop owner for a new invitation link.');
    expect((await openLink(first, { password: PASSWORD, confirm: PASSWORD })).statusCode).toBe(410);
    expect((await openLink(second)).body).toContain('Choose a password for twice@shop.dk (manager)');
    expect((await auditOf('staff.cancel-invitation'))[0]).toMatchObject({ channel: 'admin', actor: { name: 'owner@shop.dk (owner)' }, before: { email: 'twice@shop.dk', role: 'viewer' }, after: null });
  });

  it('are withdrawn only through a confirmation page; the link then says it is no longer valid', async () => {
    const shown = await submit(ownerCookie, '/admin/staff', '/admin/staff/invite', { email: 'gone@shop.dk', role: 'manager' });
    const link = linkIn(shown.body);
    const path = withdrawPathOf(await waitingTable(), 'gone@shop.dk');

    const asked = await page(t.app, ownerCookie, path);
    expect(asked.response.statusCode).toBe(200);
    expect(asked.response.body).toContain('<h1>Withdraw this invitation?</h1>');
    expect(asked.response.body).toMatch(/<strong>gone@shop\.dk<\/strong> \(manager\), expires \d/);
    expect(asked.response.body).toContain('The link stops working at once');
    expect(asked.response.body).toContain(`<form method="post" action="${path}">`);
    expect(asked.response.body).toContain('<button class="danger" type="submit">Withdraw the invitation</button> <a href="/admin/staff">Cancel</a>');

    const forged = await post(t.app, ownerCookie, path, {});
    expect(forged.statusCode).toBe(403);
    expect((await openLink(link)).statusCode).toBe(200);

    const done = await post(t.app, ownerCookie, path, { _csrf: asked.csrf ?? '' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('The invitation for gone@shop.dk was withdrawn: its link no longer works.');
    expect(await waitingTable()).not.toContain('gone@shop.dk');
    const closed = await openLink(link);
    expect(closed.statusCode).toBe(410);
    expect(closed.body).toContain('the shop owner withdrew it');
    expect(closed.body).toContain('Ask the shop owner for a new invitation link.');
    expect((await auditOf('staff.cancel-invitation'))[0]).toMatchObject({ channel: 'admin', actor: { name: 'owner@shop.dk (owner)' }, targetType: 'staff', before: { email: 'gone@shop.dk', role: 'manager' }, after: null });

    expect((await page(t.app, ownerCookie, path)).response.statusCode).toBe(404);
    const twice = await post(t.app, ownerCookie, path, { _csrf: asked.csrf ?? '' });
    expect(twice.statusCode).toBe(404);
    expect(twice.body).toContain('No such invitation is waiting: it was used, has expired or was withdrawn already.');
  });

  it('are the owner\'s: a manager can neither see the confirmation page nor withdraw', async () => {
    await submit(ownerCookie, '/admin/staff', '/admin/staff/invite', { email: 'kept@shop.dk', role: 'viewer' });
    const path = withdrawPathOf(await waitingTable(), 'kept@shop.dk');
    const manager = await staffCookie(t, 'boss@shop.dk', 'manager');
    const refused = await page(t.app, manager, path);
    expect(refused.response.statusCode).toBe(403);
    expect(refused.response.body).toContain('Only an owner manages staff.');
    const overview = await page(t.app, manager, '/admin/overview');
    expect((await post(t.app, manager, path, { _csrf: overview.csrf ?? '' })).statusCode).toBe(403);
    expect(await waitingTable()).toContain('kept@shop.dk');
  });

  it('are listed and withdrawn by the CLI\'s commands too', async () => {
    const headers = { authorization: `Bearer ${master.key}`, 'content-type': 'application/json' };
    const listed = await t.app.inject({ method: 'POST', url: '/api/v1/commands/staff.invitations', headers, payload: {} });
    const kept = (listed.json().result as Array<{ id: string; email: string; invitedBy: string }>).find((invitation) => invitation.email === 'kept@shop.dk');
    expect(kept).toMatchObject({ role: 'viewer', invitedBy: 'owner@shop.dk (owner)', expiresAt: expect.any(String) });
    const withdrawn = await t.app.inject({ method: 'POST', url: '/api/v1/commands/staff.cancel-invitation', headers, payload: { id: kept?.id } });
    expect(withdrawn.json().result).toMatchObject({ email: 'kept@shop.dk', role: 'viewer' });
    expect((await auditOf('staff.cancel-invitation'))[0]).toMatchObject({ channel: 'cli', actor: { name: 'master' }, before: { email: 'kept@shop.dk' } });
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/commands/staff.cancel-invitation', headers, payload: { id: kept?.id } });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'not_found' });
  });
});
