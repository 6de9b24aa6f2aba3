import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { hashSecret } from '../../src/access/api-keys.ts';
import { oauthRecords } from '../../src/db/schema.ts';
import { MASTER_KEY, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.app.setBaseUrl(base);
});
afterAll(async () => t.close());

/** A tiny cookie jar: the authorization server keeps its interaction state in cookies. */
function jar() {
  const cookies = new Map<string, string>();
  return {
    store(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [name, value] = (pair ?? '').split('=');
        if (name) cookies.set(name.trim(), value ?? '');
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
}

async function authorize(scopes: string[], approve: { key: string; scopes: string[] }) {
  const registered = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test <Chat>', redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none' }),
  });
  expect(registered.status, await registered.clone().text()).toBe(201);
  const client = await registered.json() as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code', client_id: client.client_id, redirect_uri: 'http://127.0.0.1:9/callback',
    scope: scopes.join(' '), code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz',
    resource: `${base}/api/mcp`,
  });
  const cookies = jar();
  let response = await fetch(`${base}/oauth/authorize?${query}`, { redirect: 'manual' });
  cookies.store(response);
  const consentUrl = new URL(response.headers.get('location') ?? '', base);
  response = await fetch(consentUrl, { headers: { cookie: cookies.header() } });
  const page = await response.text();
  expect(page).toContain('Test &lt;Chat&gt;');
  expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  const form = new URLSearchParams({ decision: 'approve', masterKey: approve.key });
  for (const scope of approve.scopes) form.append('scope', scope);
  response = await fetch(consentUrl, {
    method: 'POST', redirect: 'manual', body: form,
    headers: { cookie: cookies.header(), 'content-type': 'application/x-www-form-urlencoded' },
  });
  // The provider resumes the authorization, which then redirects to the client with the code.
  for (let hops = 0; hops < 5 && response.status >= 300 && response.status < 400; hops += 1) {
    cookies.store(response);
    const next = new URL(response.headers.get('location') ?? '', base);
    if (next.origin !== base) return { client, verifier, callback: next };
    response = await fetch(next, { redirect: 'manual', headers: { cookie: cookies.header() } });
  }
  return { client, verifier, callback: undefined, status: response.status, body: await response.text() };
}

async function tokens(body: Record<string, string>) {
  const response = await fetch(`${base}/oauth/token`, { method: 'POST', body: new URLSearchParams(body) });
  return { status: response.status, body: await response.json() as Record<string, string> };
}

async function callTool(token: string, tool: string) {
  const response = await fetch(`${base}/api/v1/tools/${tool}`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}',
  });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.json() as Record<string, unknown> };
}

/** tools/call on /api/mcp, the resource the tokens are granted for; the JSON-RPC answer or the problem. */
async function callMcp(token: string, tool: string) {
  const response = await fetch(`${base}/api/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: {} } }),
  });
  const text = await response.text();
  const json = text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').find((line) => line.startsWith('data:'))?.slice(5) ?? '' : text;
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: JSON.parse(json) as Record<string, any> };
}

async function issuedToken(scopes: string[]) {
  const flow = await authorize(scopes, { key: MASTER_KEY, scopes });
  const issued = await tokens({
    grant_type: 'authorization_code', code: flow.callback?.searchParams.get('code') ?? '', code_verifier: flow.verifier,
    client_id: flow.client.client_id, redirect_uri: 'http://127.0.0.1:9/callback', resource: `${base}/api/mcp`,
  });
  expect(issued.status).toBe(200);
  return { ...issued.body, clientId: flow.client.client_id } as Record<string, string>;
}

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
    // REST answers exactly as CONTRACT §4 says.
    const denied = await callTool('not-a-token', 'orders.list');
    expect(denied.status).toBe(401);
    expect(denied.challenge).toBe('Bearer realm="butik", error="invalid_token"');
  });

  it('runs code + PKCE, grants only the approved scopes, refreshes and revokes', async () => {
    const flow = await authorize(['orders:read', 'catalog:read'], { key: MASTER_KEY, scopes: ['orders:read'] });
    expect(flow.callback?.searchParams.get('state'), JSON.stringify(flow)).toBe('xyz');
    const code = flow.callback?.searchParams.get('code') ?? '';
    const issued = await tokens({
      grant_type: 'authorization_code', code, code_verifier: flow.verifier, client_id: flow.client.client_id,
      redirect_uri: 'http://127.0.0.1:9/callback', resource: `${base}/api/mcp`,
    });
    expect(issued.status).toBe(200);
    expect(issued.body.scope).toBe('orders:read');
    const access = issued.body.access_token ?? '';
    expect((await callMcp(access, 'orders.list')).body.result.isError).toBeUndefined();
    const forbidden = await callMcp(access, 'discounts.list');
    expect(forbidden.body.error.message).toContain('discounts:read');

    const refreshed = await tokens({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token ?? '', client_id: flow.client.client_id });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(issued.body.refresh_token);
    const renewed = refreshed.body.access_token ?? '';
    expect((await callMcp(renewed, 'orders.list')).body.result.structuredContent).toBeDefined();

    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: 'POST', body: new URLSearchParams({ token: renewed, client_id: flow.client.client_id }),
    });
    expect(revoked.status).toBe(200);
    const after = await callMcp(renewed, 'orders.list');
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthorized');
  });

  it('answers 401 to expired and wrong-audience tokens', async () => {
    const flow = await authorize(['orders:read'], { key: MASTER_KEY, scopes: ['orders:read'] });
    const issued = await tokens({
      grant_type: 'authorization_code', code: flow.callback?.searchParams.get('code') ?? '', code_verifier: flow.verifier,
      client_id: flow.client.client_id, redirect_uri: 'http://127.0.0.1:9/callback', resource: `${base}/api/mcp`,
    });
    const access = issued.body.access_token ?? '';
    expect((await callMcp(access, 'orders.list')).status).toBe(200);
    await t.database.db.update(oauthRecords)
      .set({ payload: sql`jsonb_set(${oauthRecords.payload}, '{aud}', '"https://elsewhere.example/api/mcp"')` })
      .where(and(eq(oauthRecords.model, 'AccessToken'), eq(oauthRecords.id, hashSecret(access))));
    const foreign = await callMcp(access, 'orders.list');
    expect(foreign.status).toBe(401);
    expect(foreign.body.detail).toContain('another resource');
    await t.database.db.update(oauthRecords).set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oauthRecords.model, 'AccessToken'), eq(oauthRecords.id, hashSecret(access))));
    const expired = await callMcp(access, 'orders.list');
    expect(expired.status).toBe(401);
    expect(expired.challenge).toContain('error="invalid_token"');
  });

  it('refuses the consent with a wrong master key', async () => {
    const flow = await authorize(['orders:read'], { key: 'wrong', scopes: ['orders:read'] });
    expect(flow.callback).toBeUndefined();
    expect(flow.status).toBe(401);
    expect(flow.body).toContain('Wrong master key');
  });
});
