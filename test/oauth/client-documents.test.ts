import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheSeconds } from '../../src/oauth/client-documents.ts';
import { listConnections, revokeClient } from '../../src/oauth/grants.ts';
import { listeningTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { approve, memoryAuthProvider } from '../helpers/oauth-host.ts';

/**
 * MCP hosts that name themselves by a client metadata document URL instead of registering. The documents are
 * served by this test on loopback, which the shop reads only with BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS on.
 */
const CALLBACK = 'http://127.0.0.1:9/callback';
const LOGO = 'https://logos.example/host.png';

let t: TestApp;
let base: string;
let documents: string;
/** How often each document path was fetched, to see the cache at work. */
const fetched = new Map<string, number>();
const documentServer = createServer((request, response) => {
  const path = request.url ?? '';
  fetched.set(path, (fetched.get(path) ?? 0) + 1);
  const self = `${documents}${path}`;
  const json = (body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(200, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const good = { client_id: self, client_name: 'Example Host', logo_uri: LOGO, redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' };
  switch (path) {
    case '/host.json': return json(good, { 'cache-control': 'max-age=600' });
    case '/consent.json': return json(good);
    case '/big.json': return json({ ...good, padding: 'x'.repeat(6 * 1024) });
    case '/redirect.json':
      response.writeHead(302, { location: `${documents}/host.json` });
      return response.end();
    case '/other-id.json': return json({ ...good, client_id: `${documents}/host.json` });
    case '/no-redirects.json': return json({ client_id: self, client_name: 'No way back' });
    case '/secret.json': return json({ ...good, token_endpoint_auth_method: 'client_secret_basic' });
    case '/not-json.json':
      response.writeHead(200, { 'content-type': 'text/html' });
      return response.end('<html>hello</html>');
    default:
      response.writeHead(404);
      return response.end();
  }
});

beforeAll(async () => {
  await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', resolve));
  documents = `http://127.0.0.1:${(documentServer.address() as AddressInfo).port}`;
  ({ t, base } = await listeningTestApp({ env: { BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS: '1' } }));
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => documentServer.close(resolve));
});

/** The start of an authorization as a host's browser sends it; the answer is the page the person would see. */
async function authorize(clientId: string, redirectUri = CALLBACK): Promise<{ status: number; text: string; location: string | null }> {
  const url = new URL(`${base}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'orders:read',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 'xyz',
  })) url.searchParams.set(name, value);
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, text: await response.text(), location: response.headers.get('location') };
}

it('advertises client metadata documents in the authorization server metadata, beside registration', async () => {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    const metadata = await (await fetch(`${base}${path}`)).json() as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    expect(metadata.registration_endpoint).toBe(`${base}/oauth/register`);
  }
});

it('lets a host named by its document URL sign in, be approved and call a tool with the official MCP SDK client', async () => {
  const clientId = `${documents}/host.json`;
  const { provider, store } = memoryAuthProvider();
  // The SDK itself takes an https clientMetadataUrl only; a host that chose its document URL keeps it as its client
  // information, which is what the SDK stores when it picks the document over registration, and what it sends from then on.
  store.client = { client_id: clientId };
  const url = new URL(`${base}/api/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  store.tokens = { access_token: 'A'.repeat(43), token_type: 'Bearer' };
  const failure = await new Client({ name: 'cimd-host', version: '1.0.0' }).connect(first).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(UnauthorizedError);
  const [authorizationUrl] = store.authorizations;
  if (!authorizationUrl) throw new Error('the SDK did not start an authorization');
  expect(authorizationUrl.searchParams.get('client_id')).toBe(clientId);
  const callback = await approve(base, authorizationUrl, ['orders:read']);
  expect(callback.searchParams.get('code')).toBeTruthy();
  await first.finishAuth(callback.searchParams);
  expect(store.tokens?.access_token).toBeTruthy();
  const authed = new Client({ name: 'cimd-host', version: '1.0.0' });
  await authed.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  const listed = await authed.callTool({ name: 'orders.list', arguments: {} });
  expect(listed.isError).not.toBe(true);
  await authed.close();
  // One fetch served the whole flow (authorize, consent, token, every tool call): the document said max-age=600.
  expect(fetched.get('/host.json')).toBe(1);
  // The fetched document is kept as the client's row, made permanent by the grant, so `butik oauth list` shows it.
  const connection = (await listConnections(t.database.db, new Date())).find((row) => row.clientId === clientId);
  expect(connection).toMatchObject({ clientName: 'Example Host', redirectUris: [CALLBACK], expiresAt: null, grants: [expect.anything()] });

  // Disconnected in the console and approved again while the document is still cached: listed again, by its grant.
  await revokeClient(t.database.db, clientId, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() });
  expect((await listConnections(t.database.db, new Date())).some((row) => row.clientId === clientId)).toBe(false);
  const again = await approve(base, authorizationUrl, ['orders:read']);
  expect(again.searchParams.get('code')).toBeTruthy();
  expect((await listConnections(t.database.db, new Date())).find((row) => row.clientId === clientId))
    .toMatchObject({ clientName: 'Example Host', expiresAt: null, grants: [expect.anything()] });
  expect(fetched.get('/host.json')).toBe(1);
});

it('keeps a document for its max-age, between a minute and an hour, five minutes when it names none', () => {
  expect(cacheSeconds('public, max-age=600')).toBe(600);
  expect(cacheSeconds('max-age=86400')).toBe(3600);
  expect(cacheSeconds('max-age=5')).toBe(60);
  expect(cacheSeconds('no-store')).toBe(60);
  expect(cacheSeconds(undefined)).toBe(300);
});

describe('refused documents, each with an OAuth error naming the check', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['unreachable', 'http://127.0.0.1:9/host.json', /could not be fetched/],
    ['missing', '/missing.json', /answered with status 404/],
    ['oversized', '/big.json', /could not be fetched \(answer larger than 5120 bytes\)/],
    ['redirecting', '/redirect.json', /answered with a redirect \(status 302\)/],
    ['not JSON', '/not-json.json', /the document is not JSON/],
    ['naming another client_id', '/other-id.json', /client_id .* is not the URL it was fetched from/],
    ['listing no redirect URI', '/no-redirects.json', /redirect_uris must be a list of URIs/],
    ['asking for a secret', '/secret.json', /token_endpoint_auth_method &quot;client_secret_basic&quot;/],
  ];
  for (const [what, path, check] of cases) {
    it(`refuses a document that is ${what}`, async () => {
      const answer = await authorize(path.startsWith('/') ? `${documents}${path}` : path);
      expect(answer.status).toBe(400);
      expect(answer.text).toContain('invalid_client: client metadata document refused: ');
      expect(answer.text).toMatch(check);
    });
  }

  it('refuses a redirect_uri the document does not list', async () => {
    const answer = await authorize(`${documents}/host.json`, 'http://127.0.0.1:9/elsewhere');
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('invalid_redirect_uri: redirect_uri did not match any of the client&#39;s registered redirect_uris');
  });

  it('refuses a plain http document on another host, and a URL without a path', async () => {
    expect((await authorize('http://host.example/client.json')).text).toContain('the client_id URL must use https');
    expect((await authorize('https://host.example')).text).toMatch(/not a URL in its normal form|must have a path/);
  });

  it('does not fetch a failed document again on every request', async () => {
    await authorize(`${documents}/big.json`);
    await authorize(`${documents}/big.json`);
    expect(fetched.get('/big.json')).toBe(1);
  });

  it('answers the token endpoint with invalid_client JSON for a refused document', async () => {
    const response = await fetch(`${base}/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: `${documents}/redirect.json`, redirect_uri: CALLBACK, code_verifier: 'v'.repeat(43) }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(/redirect \(status 302\)/) });
  });
});

describe('without the loopback switch', () => {
  let live: TestApp;
  let liveBase: string;
  beforeAll(async () => {
    ({ t: live, base: liveBase } = await listeningTestApp());
  });
  afterAll(async () => live.close());

  it('reads no document from plain http, and none from a private address even over https', async () => {
    const start = async (clientId: string) => {
      const url = new URL(`${liveBase}/oauth/authorize`);
      url.search = new URLSearchParams({
        client_id: clientId, redirect_uri: CALLBACK, response_type: 'code',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
      }).toString();
      const response = await fetch(url, { redirect: 'manual' });
      return { status: response.status, text: await response.text() };
    };
    const before = fetched.get('/host.json');
    const plain = await start(`${documents}/host.json`);
    expect(plain.status).toBe(400);
    expect(plain.text).toContain('invalid_client: client metadata document refused: the client_id URL must use https');
    expect(fetched.get('/host.json')).toBe(before);
    const privateAddress = await start('https://127.0.0.1:9/client.json');
    expect(privateAddress.status).toBe(400);
    expect(privateAddress.text).toContain('it could not be fetched (127.0.0.1 is not a public address)');
  });
});
