import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { MASTER_KEY } from './app.ts';
import { csrfTokenIn } from './oauth.ts';

/** The scopes a consent page's HTML has ticked, sorted. */
export function tickedOn(page: string): string[] {
  return [...page.matchAll(/value="([a-z]+:[a-z]+)" checked/g)].map((match) => match[1] ?? '').sort();
}

/**
 * The owner in a browser, played over HTTP: open the authorization URL, follow it to the consent page, open it,
 * tick `scopes`, approve with the master key and the page's CSRF token, and follow the redirects until they leave
 * the server. Returns the URL the host's callback receives; `seen` gets the consent page as it opened.
 */
export async function approve(base: string, authorizationUrl: URL, scopes: string[], seen?: (page: string) => void): Promise<URL> {
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
  response = await fetch(consent, { headers: { cookie: cookie() } });
  keep(response);
  const page = await response.text();
  seen?.(page);
  const form = new URLSearchParams([['_csrf', csrfTokenIn(page)], ['decision', 'approve'], ['masterKey', MASTER_KEY], ...scopes.map((scope) => ['scope', scope])]);
  response = await fetch(consent, { method: 'POST', redirect: 'manual', body: form, headers: { cookie: cookie() } });
  for (let hop = 0; hop < 6; hop += 1) {
    keep(response);
    const next = new URL(response.headers.get('location') ?? '', base);
    if (next.origin !== base) return next;
    response = await fetch(next, { redirect: 'manual', headers: { cookie: cookie() } });
  }
  throw new Error(`the consent did not end at the client: ${response.status} ${await response.text()}`);
}

type Stored = {
  client?: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
  tokens?: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  verifier: string;
  /** Every authorization URL the SDK sent the owner to, in order. */
  authorizations: URL[];
};

/** A headless OAuth host for the SDK's authProvider: it keeps everything in memory and records each redirect. */
export function memoryAuthProvider(): { provider: OAuthClientProvider; store: Stored } {
  const store: Stored = { verifier: '', authorizations: [] };
  const provider: OAuthClientProvider = {
    redirectUrl: 'http://127.0.0.1:9/callback',
    clientMetadata: {
      client_name: 'SDK test host', redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
    },
    clientInformation: () => store.client,
    saveClientInformation: (info) => { store.client = info; },
    tokens: () => store.tokens,
    saveTokens: (tokens) => { store.tokens = tokens; },
    redirectToAuthorization: (url) => { store.authorizations.push(url); },
    saveCodeVerifier: (verifier) => { store.verifier = verifier; },
    codeVerifier: () => store.verifier,
  };
  return { provider, store };
}
