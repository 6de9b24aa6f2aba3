import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';

export const CALLBACK = 'http://127.0.0.1:9/callback';

/** A tiny cookie jar: the authorization server keeps its interaction state in cookies. */
export function jar() {
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

/** The client address a server with BUTIK_TRUST_PROXY=true sees: one per test keeps their rate limits apart. */
export type From = { ip?: string };
const forwarded = (from: From): Record<string, string> => (from.ip ? { 'x-forwarded-for': from.ip } : {});

export async function register(base: string, metadata: Record<string, unknown> = {}, from: From = {}): Promise<Response> {
  return fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...forwarded(from) },
    body: JSON.stringify({ client_name: 'Test <Chat>', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', ...metadata }),
  });
}

/** Registers a client and opens an authorization up to the consent page: its URL and the cookies that go with it. */
export async function openConsent(base: string, scopes: string[], from: From = {}) {
  const registered = await register(base, {}, from);
  expect(registered.status, await registered.clone().text()).toBe(201);
  const client = await registered.json() as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code', client_id: client.client_id, redirect_uri: CALLBACK,
    scope: scopes.join(' '), code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz',
    resource: `${base}/api/mcp`,
  });
  const cookies = jar();
  const response = await fetch(`${base}/oauth/authorize?${query}`, { redirect: 'manual', headers: forwarded(from) });
  cookies.store(response);
  const consentUrl = new URL(response.headers.get('location') ?? '', base);
  // The owner's browser draws the page before posting it: its form holds the CSRF token (a cookie goes with it).
  const page = await fetch(consentUrl, { headers: { cookie: cookies.header(), ...forwarded(from) } });
  cookies.store(page);
  return { client, verifier, cookies, consentUrl, csrf: csrfTokenIn(await page.text()) };
}

/** The CSRF token of a form page (`<input name="_csrf">`): a person's browser posts what the page it drew holds. */
export function csrfTokenIn(page: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error(`the page holds no CSRF token: ${page.slice(0, 200)}`);
  return token;
}

/**
 * Posts the consent form; follows the provider's redirects until they leave for the client. A page drawn again
 * (a wrong key) holds the token the next answer posts, as a browser would.
 */
export async function answerConsent(
  base: string,
  consent: Awaited<ReturnType<typeof openConsent>>,
  approve: { key: string; scopes: string[] },
  from: From = {},
) {
  const { cookies, consentUrl } = consent;
  const form = new URLSearchParams({ _csrf: consent.csrf, decision: 'approve', masterKey: approve.key });
  for (const scope of approve.scopes) form.append('scope', scope);
  let response = await fetch(consentUrl, {
    method: 'POST', redirect: 'manual', body: form,
    headers: { cookie: cookies.header(), 'content-type': 'application/x-www-form-urlencoded', ...forwarded(from) },
  });
  for (let hops = 0; hops < 5 && response.status >= 300 && response.status < 400; hops += 1) {
    cookies.store(response);
    const next = new URL(response.headers.get('location') ?? '', base);
    if (next.origin !== base) return { callback: next, status: response.status, body: '' };
    response = await fetch(next, { redirect: 'manual', headers: { cookie: cookies.header(), ...forwarded(from) } });
  }
  const body = await response.text();
  const next = /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
  if (next) consent.csrf = next;
  return { callback: undefined, status: response.status, body };
}

export async function tokens(base: string, body: Record<string, string>) {
  const response = await fetch(`${base}/oauth/token`, { method: 'POST', body: new URLSearchParams(body) });
  return { status: response.status, body: await response.json() as Record<string, string> };
}

/** The whole flow: a client, the owner's approval of exactly `scopes`, and the token response. */
export async function issueToken(base: string, scopes: string[], masterKey: string) {
  const consent = await openConsent(base, scopes);
  const answered = await answerConsent(base, consent, { key: masterKey, scopes });
  const issued = await tokens(base, {
    grant_type: 'authorization_code', code: answered.callback?.searchParams.get('code') ?? '', code_verifier: consent.verifier,
    client_id: consent.client.client_id, redirect_uri: CALLBACK, resource: `${base}/api/mcp`,
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  return { clientId: consent.client.client_id, accessToken: issued.body.access_token ?? '', refreshToken: issued.body.refresh_token ?? '' };
}

export async function callTool(base: string, token: string, tool: string) {
  const response = await fetch(`${base}/api/v1/tools/${tool}`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}',
  });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.json() as Record<string, any> };
}

/** tools/call on /api/mcp, the resource the tokens are granted for: the JSON-RPC answer, or the problem. */
export async function callMcp(base: string, token: string, tool: string) {
  const response = await fetch(`${base}/api/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: {} } }),
  });
  const text = await response.text();
  const json = /^(event|data):/.test(text) ? text.split('\n').find((line) => line.startsWith('data:'))?.slice(5) ?? '' : text;
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: JSON.parse(json) as Record<string, any> };
}
