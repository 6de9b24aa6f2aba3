import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { oauthRecords } from '../../src/db/schema.ts';
import { sweepExpiredRecords } from '../../src/oauth/adapter.ts';
import { consentPolicy } from '../../src/oauth/consent-page.ts';
import { MASTER_KEY, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { answerConsent, callMcp, callTool, issueToken, openConsent, register } from '../helpers/oauth.ts';

/**
 * The doors the OAuth server opens to anyone: where its tokens count, what registration may store, how many
 * master keys the consent page lets one guess, and what a reader of the database learns.
 */
let t: TestApp;
let base: string;
/** Low limits and X-Forwarded-For honoured, so each test counts from an address of its own. */
let limited: TestApp;
let limitedBase: string;

async function listen(app: TestApp): Promise<string> {
  await app.app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
  app.app.setBaseUrl(url);
  return url;
}

beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t);
  limited = await createTestApp({ env: { BUTIK_RATE_LIMITS: 'anon:6,preauth:2,key:1000', BUTIK_TRUST_PROXY: 'true' } });
  limitedBase = await listen(limited);
}, 120_000);
afterAll(async () => {
  await Promise.all([t?.close(), limited?.close()]);
});

async function records(app: TestApp) {
  return app.database.db.select().from(oauthRecords);
}

describe('an access token counts only at the resource it was granted for', () => {
  it('is refused by the REST API exactly as an unknown token is, and accepted on /api/mcp', async () => {
    const { accessToken } = await issueToken(base, ['orders:read', 'products:write'], MASTER_KEY);
    const viaMcp = await callMcp(base, accessToken, 'orders.list');
    expect(viaMcp.status).toBe(200);
    expect(viaMcp.body.result.structuredContent).toBeDefined();

    const viaRest = await callTool(base, accessToken, 'orders.list');
    const unknown = await callTool(base, 'A'.repeat(43), 'orders.list');
    expect(viaRest.status).toBe(401);
    expect(viaRest.challenge).toBe(unknown.challenge);
    const { instance: _a, ...refused } = viaRest.body;
    const { instance: _b, ...unknownProblem } = unknown.body;
    expect(refused).toEqual(unknownProblem);
    const create = await callTool(base, accessToken, 'products.create');
    expect(create.status).toBe(401);
  });
});

describe('dynamic client registration', () => {
  it('refuses a body over 8 KiB, long names, many redirect URIs and plain http to other hosts', async () => {
    const big = await register(base, { client_name: 'x'.repeat(800_000) });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: 'invalid_client_metadata' });
    const longName = await register(base, { client_name: 'x'.repeat(201) });
    expect(longName.status).toBe(400);
    expect(await longName.json()).toMatchObject({ error: 'invalid_client_metadata', error_description: expect.stringContaining('client_name') });
    const many = await register(base, { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/cb/${i}`) });
    expect(await many.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    const plain = await register(base, { redirect_uris: ['http://evil.example/cb'] });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ error: 'invalid_redirect_uri', error_description: expect.stringContaining('https') });
    const odd = await register(base, { redirect_uris: ['https://a;report-uri/cb'] });
    expect(odd.status).toBe(400);
    for (const uri of ['https://app.example/cb', 'http://127.0.0.1:4711/cb', 'http://localhost:8/cb', 'http://[::1]:9/cb']) {
      const accepted = await register(base, { redirect_uris: [uri] });
      expect(accepted.status, uri).toBe(201);
    }
  });

  it('answers a NUL byte in a registration, a token request or an authorization with 400 invalid_request, never 500', async () => {
    const registered = await fetch(`${base}/oauth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'evil\u0000name', redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
    });
    expect(registered.status).toBe(400);
    expect(await registered.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/NUL/) });

    const token = await fetch(`${base}/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&client_id=%00&code=x',
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({ error: 'invalid_request' });

    const authorize = await fetch(`${base}/oauth/authorize?client_id=%00&response_type=code`, { redirect: 'manual' });
    expect(authorize.status).toBe(400);
    expect(await authorize.json()).toMatchObject({ code: 'validation_failed', detail: expect.stringMatching(/NUL/) });
  });

  it('gives every client an id no command line reads as an option', async () => {
    const ids = await Promise.all(Array.from({ length: 3 }, async () => ((await (await register(base)).json()) as { client_id: string }).client_id));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('counts every /oauth/ request under the anonymous policy of the client address', async () => {
    const from = { ip: '203.0.113.10' };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await register(limitedBase, {}, from)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429]);
    const refused = await register(limitedBase, {}, from);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await register(limitedBase, {}, { ip: '203.0.113.11' })).status).toBe(201);
  });

  it('expires a client that never reached a grant, and keeps one that did', async () => {
    const idle = (await (await register(base)).json()) as { client_id: string };
    const { clientId: used } = await issueToken(base, ['orders:read'], MASTER_KEY);
    const clientRow = async (id: string) => (await t.database.db.select().from(oauthRecords)
      .where(and(eq(oauthRecords.model, 'Client'), eq(oauthRecords.id, id))))[0];
    const idleRow = await clientRow(idle.client_id);
    expect(idleRow?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
    expect((await clientRow(used))?.expiresAt).toBeNull();

    await sweepExpiredRecords(t.database.db, new Date(Date.now() + 25 * 3600 * 1000));
    expect(await clientRow(idle.client_id)).toBeUndefined();
    expect(await clientRow(used)).toBeDefined();
  });
});

describe('the master key on the consent page', () => {
  it('ends the interaction after five wrong keys and tells the client access_denied', async () => {
    const consent = await openConsent(base, ['orders:read']);
    for (let left = 4; left >= 1; left -= 1) {
      const wrong = await answerConsent(base, consent, { key: `wrong-${left}`, scopes: ['orders:read'] });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toContain(`${left} attempt`);
    }
    const ended = await answerConsent(base, consent, { key: 'wrong-5', scopes: ['orders:read'] });
    expect(ended.callback?.searchParams.get('error')).toBe('access_denied');
    const after = await answerConsent(base, consent, { key: MASTER_KEY, scopes: ['orders:read'] });
    expect(after.callback).toBeUndefined();
    expect(after.status).toBe(400);
  });

  it('counts each attempt under preauth before comparing, so the right key is refused once the guesses are used up', async () => {
    const from = { ip: '203.0.113.20' };
    const consent = await openConsent(limitedBase, ['orders:read'], from);
    for (let i = 0; i < 2; i += 1) expect((await answerConsent(limitedBase, consent, { key: 'guess', scopes: [] }, from)).status).toBe(401);
    const right = await answerConsent(limitedBase, consent, { key: MASTER_KEY, scopes: ['orders:read'] }, from);
    expect(right.status).toBe(429);
    expect(right.body).toContain('Too many attempts');
  });

  it('is a field browsers do not fill in, under exactly the asked-for scopes ticked, writes included, and nothing else', async () => {
    const consent = await openConsent(base, ['orders:read', 'orders:write', 'settings:write', 'audit:revert', 'catalog:read']);
    const page = await (await fetch(consent.consentUrl, { headers: { cookie: consent.cookies.header() } })).text();
    expect(page).toContain('name="masterKey" autocomplete="off"');
    const ticked = [...page.matchAll(/value="([a-z]+:[a-z]+)" checked/g)].map((match) => match[1]).sort();
    expect(ticked).toEqual(['audit:revert', 'catalog:read', 'orders:read', 'orders:write', 'settings:write']);
    expect(page).toMatch(/value="products:write">/);
    expect(page).toMatch(/value="customer:read">/);
    expect([...page.matchAll(/<legend>([^<]+)<\/legend>/g)].map((match) => match[1])).toEqual(['Read', 'Write', 'Administration']);
    expect(page).toContain('Undo a change recorded in the audit log.');
  });
});

describe('the consent form and CSRF', () => {
  it('refuses an approval its page did not draw, with or without an Origin header, and grants nothing', async () => {
    const consent = await openConsent(base, ['orders:read']);
    const approval = new URLSearchParams({ decision: 'approve', masterKey: MASTER_KEY, scope: 'orders:read' });
    for (const headers of [{}, { origin: 'https://elsewhere.example' }] as Array<Record<string, string>>) {
      const response = await fetch(consent.consentUrl, {
        method: 'POST', redirect: 'manual', body: approval,
        headers: { cookie: consent.cookies.header(), 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('This form has expired');
    }
    // The interaction is still open: the owner's own page approves it.
    const answered = await answerConsent(base, consent, { key: MASTER_KEY, scopes: ['orders:read'] });
    expect(answered.callback?.searchParams.get('code')).toBeTruthy();
  });
});

describe('what the stored records give away', () => {
  it('keeps no access token, refresh token or authorization code readable in the database', async () => {
    const consent = await openConsent(base, ['orders:read']);
    const answered = await answerConsent(base, consent, { key: MASTER_KEY, scopes: ['orders:read'] });
    const code = answered.callback?.searchParams.get('code') ?? '';
    expect(code.length).toBeGreaterThan(20);
    expect(JSON.stringify(await records(t))).not.toContain(code);

    const { accessToken, refreshToken } = await issueToken(base, ['orders:read'], MASTER_KEY);
    const dump = JSON.stringify(await records(t));
    expect(dump).not.toContain(accessToken);
    expect(dump).not.toContain(refreshToken);
    expect((await callMcp(base, accessToken, 'orders.list')).status).toBe(200);
  });
});

describe('pages and headers', () => {
  it('writes only a plain origin of the redirect URI into the consent page policy', () => {
    expect(consentPolicy('https://app.example:8443/cb')).toContain("form-action 'self' https://app.example:8443;");
    expect(consentPolicy('https://a;report-uri/cb')).toContain("form-action 'self';");
    expect(consentPolicy('com.example.app:/cb')).toContain("form-action 'self' com.example.app:;");
  });

  it("gives oidc-provider's own pages the site's policy, no framing and nosniff, and refuses form_post", async () => {
    const error = await fetch(`${base}/oauth/authorize?client_id=nobody&response_type=code`);
    expect(error.status).toBe(400);
    expect(error.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(error.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await error.text();
    expect(body).toContain('/assets/site.css');
    expect(body).not.toContain('<style');
    const formPost = await fetch(`${base}/oauth/authorize?client_id=nobody&response_type=code&response_mode=form_post`);
    expect(formPost.status).toBe(400);
    expect(formPost.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await formPost.text()).toContain('response_mode=query');
  });
});
