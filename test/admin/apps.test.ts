import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthRecords } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let owner = '';
let manager = '';

const inAnHour = () => new Date(Date.now() + 3600_000);

/** One connected application as oidc-provider stores it: client, grant, tokens under the grant. */
async function seedConnection(clientId: string, grantId: string, name: string): Promise<void> {
  await t.database.db.insert(oauthRecords).values([
    { model: 'Client', id: clientId, payload: { client_id: clientId, client_name: name, redirect_uris: ['https://app.example/cb'] } },
    { model: 'Grant', id: grantId, expiresAt: inAnHour(), payload: { clientId, accountId: 'owner', iat: 1_763_000_000, resources: { 'http://butik.test/api/mcp': 'orders:read catalog:read' } } },
    { model: 'AccessToken', id: `at-${grantId}`, grantId, expiresAt: inAnHour(), payload: { clientId, grantId, iat: 1_763_500_000 } },
  ]);
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await staffCookie(t, 'olga@shop.dk', 'owner');
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
  await seedConnection('client-a', 'grant-a', 'Claude for Butik');
  await seedConnection('client-b', 'grant-b', 'Other assistant');
  await seedConnection('https://assistant.example/oauth/client.json', 'grant-c', 'Example Assistant');
});
afterAll(async () => t.close());

describe('connected apps', () => {
  it('lists each app with its scopes, when it was granted and when it last got a token', async () => {
    const shown = await page(t.app, owner, '/admin/apps');
    expect(shown.response.statusCode).toBe(200);
    const body = shown.response.body;
    expect(body).toContain('<h2 id="c-client-a">Claude for Butik</h2>');
    expect(body).toContain('<span class="scope">orders:read catalog:read</span>');
    expect(body).toMatch(/<td data-label="Granted">13 Nov 2025, \d\d:\d\d<\/td>/);
    expect(body).toMatch(/<td data-label="Last token issued">18 Nov 2025, \d\d:\d\d<\/td>/);
    expect(body).toMatch(/<td data-label="Working tokens" class="num">1<\/td>/);
  });

  it('shows an app named by its client metadata document by the host that serves it and its name, and disconnects it', async () => {
    const shown = await page(t.app, owner, '/admin/apps');
    const body = shown.response.body;
    expect(body).toContain('<h2 id="c-https://assistant.example/oauth/client.json">Example Assistant</h2>');
    expect(body).toContain('<p class="meta"><strong>assistant.example</strong> · Named by its document at <code>https://assistant.example/oauth/client.json</code>');
    // Disconnecting goes through its confirmation page, found by the encoded client id (the id is a URL).
    const action = '/admin/apps/https%3A%2F%2Fassistant.example%2Foauth%2Fclient.json/revoke';
    expect(body).toContain(`href="${action}"`);
    const confirm = await page(t.app, owner, action);
    expect(confirm.response.body).toContain(`action="${action}"`);
    const disconnected = await post(t.app, owner, action, { _csrf: confirm.csrf ?? '' });
    expect(disconnected.statusCode).toBe(303);
    expect((await page(t.app, owner, '/admin/apps')).response.body).not.toContain('Example Assistant');
  });

  it('answers a NUL byte in a console path with 400, not 500', async () => {
    const shown = await page(t.app, owner, '/admin/keys');
    for (const url of ['/admin/keys/abc%00def/revoke', '/admin/apps/client%00/revoke']) {
      const refused = await post(t.app, owner, url, { _csrf: shown.csrf ?? '' });
      expect(refused.statusCode).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'validation_failed', detail: expect.stringMatching(/NUL/) });
    }
  });

  it('revokes a grant and disconnects an app, each audited under the owner\'s name without a revert', async () => {
    const shown = await page(t.app, owner, '/admin/apps');
    // Revoking one grant is a link to its confirmation page, never a form that revokes at once.
    expect(shown.response.body).toContain('<a class="button danger" href="/admin/apps/grants/grant-a/revoke">Revoke access<span class="skip-link"> Claude for Butik</span></a>');
    expect(shown.response.body).not.toContain('action="/admin/apps/grants/');
    const grantAsked = await page(t.app, owner, '/admin/apps/grants/grant-a/revoke');
    expect(grantAsked.response.statusCode).toBe(200);
    expect(grantAsked.response.body).toContain('<h1>Revoke this app&#39;s access?</h1>');
    expect(grantAsked.response.body).toMatch(/<strong>Claude for Butik<\/strong> \(client-a\) · Allowed: <span class="scope">orders:read catalog:read<\/span> <small>\(http:\/\/butik\.test\/api\/mcp\)<\/small> · Granted 13 Nov 2025, \d\d:\d\d/);
    expect(grantAsked.response.body).toContain('tokens under this access stop working at once. To use the shop again, the person must connect the app again');
    expect(grantAsked.response.body).toContain('<form method="post" action="/admin/apps/grants/grant-a/revoke">');
    expect(grantAsked.response.body).toContain('<button class="danger" type="submit">Revoke access</button> <a href="/admin/apps">Cancel</a>');
    expect((await post(t.app, owner, '/admin/apps/grants/grant-a/revoke', {})).statusCode).toBe(403);
    expect((await page(t.app, owner, '/admin/apps')).response.body).toMatch(/<td data-label="Working tokens" class="num">1<\/td>[\s\S]*?grants\/grant-a\/revoke/);
    const revoked = await post(t.app, owner, '/admin/apps/grants/grant-a/revoke', { _csrf: grantAsked.csrf ?? '' });
    expect(revoked.statusCode).toBe(303);
    expect((await page(t.app, owner, '/admin/apps/grants/grant-a/revoke')).response.statusCode).toBe(404);
    expect((await page(t.app, owner, String(revoked.headers.location))).response.body).toContain('The access was revoked');
    expect(shown.response.body).toContain('<a class="button danger" href="/admin/apps/client-b/revoke">Disconnect the app');
    const asked = await page(t.app, owner, '/admin/apps/client-b/revoke');
    expect(asked.response.body).toContain('<h1>Disconnect this app?</h1>');
    expect(asked.response.body).toContain('<strong>Other assistant</strong> (client-b)');
    expect(asked.response.body).toContain('its tokens stop working at once');
    const disconnected = await post(t.app, owner, '/admin/apps/client-b/revoke', { _csrf: asked.csrf ?? '' });
    expect(disconnected.statusCode).toBe(303);

    const after = (await page(t.app, owner, '/admin/apps')).response.body;
    expect(after).toContain('Registered, not yet approved');
    expect(after).not.toContain('Other assistant');

    const key = await t.keyWith('audit:read');
    const entries = (await t.call('audit.list', { limit: 10 }, { key })).body.result as Array<Record<string, any>>;
    expect(entries.find((entry) => entry.tool === 'oauth.revoke-grant')).toMatchObject({
      channel: 'admin', targetType: 'oauth_grant', targetId: 'grant-a', actor: { name: 'olga@shop.dk (owner)' },
      before: { clientId: 'client-a', scopes: { 'http://butik.test/api/mcp': 'orders:read catalog:read' } }, after: null,
    });
    expect(entries.find((entry) => entry.tool === 'oauth.revoke-client')).toMatchObject({ targetId: 'client-b', before: { clientName: 'Other assistant' } });
    const activity = (await page(t.app, owner, '/admin/activity?tool=oauth.revoke-grant')).response.body;
    expect(activity).toContain('>Connected app&#39;s grant grant-a</h2>');
    expect(activity).toContain('<code>oauth.revoke-grant</code>');
    expect(activity).not.toContain('/revert');
  });

  it('answers an unknown grant with a problem, and keeps the page from a manager', async () => {
    const shown = await page(t.app, owner, '/admin/apps');
    const unknown = await post(t.app, owner, '/admin/apps/grants/nope/revoke', { _csrf: shown.csrf ?? '' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain('No OAuth grant nope.');
    expect(unknown.body).toContain('What to do');
    expect((await page(t.app, manager, '/admin/apps')).response.statusCode).toBe(403);
    const managerPage = await page(t.app, manager, '/admin/overview');
    expect(managerPage.response.body).not.toContain('href="/admin/apps"');
    const forged = await post(t.app, manager, '/admin/apps/client-a/revoke', { _csrf: managerPage.csrf ?? '' });
    expect(forged.statusCode).toBe(403);
    expect((await page(t.app, manager, '/admin/apps/grants/grant-b/revoke')).response.statusCode).toBe(403);
    expect((await post(t.app, manager, '/admin/apps/grants/grant-b/revoke', { _csrf: managerPage.csrf ?? '' })).statusCode).toBe(403);
  });
});
