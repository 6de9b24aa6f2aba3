import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { hashSecret } from '../../src/access/api-keys.ts';
import { oauthRecords } from '../../src/db/schema.ts';
import { MASTER_KEY, listeningTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { CALLBACK, answerConsent, callMcp, callTool, issueToken, openConsent, tokens } from '../helpers/oauth.ts';

let t: TestApp;
let base: string;

beforeAll(async () => {
  ({ t, base } = await listeningTestApp());
});
afterAll(async () => t.close());

describe('OAuth 2.1 for MCP connectors', () => {
  it('publishes protected resource metadata and advertises it on 401', async () => {
    const metadata = await (await fetch(`${base}/.well-known/oauth-protected-resource/api/mcp`)).json();
    expect(metadata).toMatchObject({ resource: `${base}/api/mcp`, authorization_servers: [base] });
    const server = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    expect(server).toMatchObject({ issuer: base, code_challenge_methods_supported: ['S256'], registration_endpoint: `${base}/oauth/register` });
    const mcp = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate'))
      .toBe(`Bearer realm="butik", error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp"`);
    // REST answers exactly as docs/behaviour.md#errors says.
    const denied = await callTool(base, 'not-a-token', 'orders.list');
    expect(denied.status).toBe(401);
    expect(denied.challenge).toBe('Bearer realm="butik", error="invalid_token"');
  });

  it('runs code + PKCE, grants only the approved scopes, refreshes and revokes', async () => {
    const consent = await openConsent(base, ['orders:read', 'catalog:read']);
    const page = await fetch(consent.consentUrl, { headers: { cookie: consent.cookies.header() } });
    expect(await page.text()).toContain('Test &lt;Chat&gt;');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const flow = await answerConsent(base, consent, { key: MASTER_KEY, scopes: ['orders:read'] });
    expect(flow.callback?.searchParams.get('state'), JSON.stringify(flow)).toBe('xyz');
    const issued = await tokens(base, {
      grant_type: 'authorization_code', code: flow.callback?.searchParams.get('code') ?? '', code_verifier: consent.verifier,
      client_id: consent.client.client_id, redirect_uri: CALLBACK, resource: `${base}/api/mcp`,
    });
    expect(issued.status).toBe(200);
    expect(issued.body.scope).toBe('orders:read');
    const access = issued.body.access_token ?? '';
    expect((await callMcp(base, access, 'orders.list')).body.result.structuredContent).toBeDefined();
    const forbidden = await callMcp(base, access, 'discounts.list');
    expect(forbidden.body.error.message).toContain('discounts:read');

    const refreshed = await tokens(base, { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token ?? '', client_id: consent.client.client_id });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(issued.body.refresh_token);
    const renewed = refreshed.body.access_token ?? '';
    expect((await callMcp(base, renewed, 'orders.list')).body.result.structuredContent).toBeDefined();

    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: 'POST', body: new URLSearchParams({ token: renewed, client_id: consent.client.client_id }),
    });
    expect(revoked.status).toBe(200);
    const after = await callMcp(base, renewed, 'orders.list');
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthorized');
  });

  it('answers 401 to expired and wrong-audience tokens', async () => {
    const { accessToken } = await issueToken(base, ['orders:read'], MASTER_KEY);
    expect((await callMcp(base, accessToken, 'orders.list')).status).toBe(200);
    const stored = and(eq(oauthRecords.model, 'AccessToken'), eq(oauthRecords.id, hashSecret(accessToken)));
    await t.database.db.update(oauthRecords)
      .set({ payload: sql`jsonb_set(${oauthRecords.payload}, '{aud}', '"https://elsewhere.example/api/mcp"')` }).where(stored);
    const foreign = await callMcp(base, accessToken, 'orders.list');
    expect(foreign.status).toBe(401);
    expect(foreign.body.detail).toContain('another resource');
    await t.database.db.update(oauthRecords).set({ expiresAt: new Date(Date.now() - 1000) }).where(stored);
    const expired = await callMcp(base, accessToken, 'orders.list');
    expect(expired.status).toBe(401);
    expect(expired.challenge).toContain('error="invalid_token"');
  });

  it('refuses the consent with a wrong master key', async () => {
    const flow = await answerConsent(base, await openConsent(base, ['orders:read']), { key: 'wrong', scopes: ['orders:read'] });
    expect(flow.callback).toBeUndefined();
    expect(flow.status).toBe(401);
    expect(flow.body).toContain('Wrong master key');
  });
});
