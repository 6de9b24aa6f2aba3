import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

/** The owner in a browser, played over HTTP: open the consent page, tick orders:read, approve with the master key. */
async function approve(authorizationUrl: URL): Promise<URL> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [name, value] = (line.split(';')[0] ?? '').split('=');
      if (name) cookies.set(name, value ?? '');
    }
  };
  const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let response = await fetch(authorizationUrl, { redirect: 'manual' });
  keep(response);
  const consent = new URL(response.headers.get('location') ?? '', base);
  const form = new URLSearchParams({ decision: 'approve', masterKey: MASTER_KEY, scope: 'orders:read' });
  response = await fetch(consent, { method: 'POST', redirect: 'manual', body: form, headers: { cookie: cookie() } });
  for (let hop = 0; hop < 6; hop += 1) {
    keep(response);
    const next = new URL(response.headers.get('location') ?? '', base);
    if (next.origin !== base) return next;
    response = await fetch(next, { redirect: 'manual', headers: { cookie: cookie() } });
  }
  throw new Error(`the consent did not end at the client: ${response.status} ${await response.text()}`);
}

it('lets the official MCP SDK v2 client connect through OAuth and call a tool with the granted scope', async () => {
  const store: { client?: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>; tokens?: Awaited<ReturnType<OAuthClientProvider['tokens']>>; verifier: string } = { verifier: '' };
  let authorizationUrl: URL | undefined;
  const provider: OAuthClientProvider = {
    redirectUrl: 'http://127.0.0.1:9/callback',
    clientMetadata: { client_name: 'SDK test host', redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
    clientInformation: () => store.client,
    saveClientInformation: (info) => { store.client = info; },
    tokens: () => store.tokens,
    saveTokens: (tokens) => { store.tokens = tokens; },
    redirectToAuthorization: (url) => { authorizationUrl = url; },
    saveCodeVerifier: (verifier) => { store.verifier = verifier; },
    codeVerifier: () => store.verifier,
  };
  const url = new URL(`${base}/api/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
  // An anonymous connection is allowed (public tools), so the host starts from a stale token: the 401's
  // WWW-Authenticate sends the SDK through discovery, registration and the authorization redirect.
  store.tokens = { access_token: 'A'.repeat(43), token_type: 'Bearer' };
  const failure = await client.connect(first).catch((error: unknown) => error);
  expect(failure, String(failure instanceof Error ? `${failure.message} ${JSON.stringify(failure)}` : failure)).toBeInstanceOf(UnauthorizedError);
  if (!authorizationUrl) throw new Error('the SDK did not start an authorization');
  expect(authorizationUrl.searchParams.get('resource')).toBe(`${base}/api/mcp`);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  const callback = await approve(authorizationUrl);
  await first.finishAuth(callback.searchParams);
  expect(store.tokens?.access_token).toBeTruthy();
  const authed = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
  await authed.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  const listed = await authed.callTool({ name: 'orders.list', arguments: {} });
  expect(listed.isError).not.toBe(true);
  const refused = await authed.callTool({ name: 'discounts.list', arguments: {} }).catch((error: unknown) => ({ isError: true, error }));
  expect(refused.isError).toBe(true);
  await authed.close();
});
