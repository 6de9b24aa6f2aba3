import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { CALLBACK, jar, register, tokens } from './oauth.ts';

export const LINK_SCOPES = ['dev.ucp.shopping.checkout:manage', 'dev.ucp.shopping.order:read'];
export const PASSWORD = 'correct horse battery';

/** The client address a server with BUTIK_TRUST_PROXY=true sees; one per test keeps their sign-in limits apart. */
const from = (ip: string | undefined): Record<string, string> => (ip ? { 'x-forwarded-for': ip } : {});

/** The CSRF token in a buyer page's form. */
export function csrfOf(page: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  expect(token, page).toBeDefined();
  return token ?? '';
}

type Jar = ReturnType<typeof jar>;

/** GET a buyer page with the jar's cookies, keeping what it sets. */
export async function openPage(url: URL | string, cookies: Jar, ip?: string) {
  const response = await fetch(url, { headers: { cookie: cookies.header(), ...from(ip) }, redirect: 'manual' });
  cookies.store(response);
  return { response, text: await response.text() };
}

/** POST a buyer form with the jar's cookies. */
export async function postForm(url: URL | string, cookies: Jar, form: URLSearchParams, ip?: string) {
  const response = await fetch(url, {
    method: 'POST', redirect: 'manual', body: form,
    headers: { cookie: cookies.header(), 'content-type': 'application/x-www-form-urlencoded', ...from(ip) },
  });
  cookies.store(response);
  return response;
}

export async function signUp(base: string, email: string, password = PASSWORD, ip?: string) {
  const cookies = jar();
  const page = await openPage(`${base}/oauth/sign-up`, cookies, ip);
  return postForm(`${base}/oauth/sign-up`, cookies, new URLSearchParams({ _csrf: csrfOf(page.text), email, password }), ip);
}

/**
 * A platform starts linking as UCP describes it: registers, then sends the buyer to /oauth/authorize with UCP's
 * scopes and PKCE, and no `resource`. Returns the link page's URL and the cookies of the buyer's browser.
 */
export async function openLink(base: string, scopes = LINK_SCOPES, ip?: string) {
  const registered = await register(base, { client_name: 'Shopping <Agent>' }, ip ? { ip } : {});
  expect(registered.status).toBe(201);
  const client = await registered.json() as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code', client_id: client.client_id, redirect_uri: CALLBACK, scope: scopes.join(' '),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', state: 'link-state',
  });
  const cookies = jar();
  const response = await fetch(`${base}/oauth/authorize?${query}`, { redirect: 'manual', headers: from(ip) });
  cookies.store(response);
  return { client, verifier, cookies, linkUrl: new URL(response.headers.get('location') ?? '', base) };
}

export type Link = Awaited<ReturnType<typeof openLink>>;

/** The buyer answers the link page; the provider's redirects are followed until they leave for the platform. */
export async function answerLink(base: string, link: Link, answer: { email: string; password?: string; scopes?: string[]; decision?: string }, ip?: string) {
  const page = await openPage(link.linkUrl, link.cookies, ip);
  const form = new URLSearchParams({ _csrf: csrfOf(page.text), decision: answer.decision ?? 'approve', email: answer.email, password: answer.password ?? PASSWORD });
  for (const scope of answer.scopes ?? LINK_SCOPES) form.append('scope', scope);
  let response = await postForm(link.linkUrl, link.cookies, form, ip);
  for (let hops = 0; hops < 5 && response.status >= 300 && response.status < 400; hops += 1) {
    const next = new URL(response.headers.get('location') ?? '', base);
    if (next.origin !== base) return { callback: next, status: response.status, body: '' };
    response = await fetch(next, { redirect: 'manual', headers: { cookie: link.cookies.header(), ...from(ip) } });
    link.cookies.store(response);
  }
  return { callback: undefined, status: response.status, body: await response.text() };
}

/** The whole link: sign-in, consent, and the code exchanged with the PKCE verifier. */
export async function linkBuyer(base: string, email: string, scopes = LINK_SCOPES, ip?: string) {
  const link = await openLink(base, scopes, ip);
  const answered = await answerLink(base, link, { email, scopes }, ip);
  const issued = await tokens(base, {
    grant_type: 'authorization_code', code: answered.callback?.searchParams.get('code') ?? '', code_verifier: link.verifier,
    client_id: link.client.client_id, redirect_uri: CALLBACK,
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  return { clientId: link.client.client_id, accessToken: issued.body.access_token ?? '', refreshToken: issued.body.refresh_token ?? '', scope: issued.body.scope };
}
