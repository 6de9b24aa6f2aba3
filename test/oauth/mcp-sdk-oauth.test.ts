import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listeningTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { approve, memoryAuthProvider } from '../helpers/oauth-host.ts';

let t: TestApp;
let base: string;

beforeAll(async () => {
  ({ t, base } = await listeningTestApp());
});
afterAll(async () => t.close());

it('lets the official MCP SDK v2 client connect through OAuth and call a tool with the granted scope', async () => {
  const { provider, store } = memoryAuthProvider();
  const url = new URL(`${base}/api/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
  // An anonymous connection is allowed (public tools), so the host starts from a stale token: the 401's
  // WWW-Authenticate sends the SDK through discovery, registration and the authorization redirect.
  store.tokens = { access_token: 'A'.repeat(43), token_type: 'Bearer' };
  const failure = await client.connect(first).catch((error: unknown) => error);
  expect(failure, String(failure instanceof Error ? `${failure.message} ${JSON.stringify(failure)}` : failure)).toBeInstanceOf(UnauthorizedError);
  const [authorizationUrl] = store.authorizations;
  if (!authorizationUrl) throw new Error('the SDK did not start an authorization');
  expect(authorizationUrl.searchParams.get('resource')).toBe(`${base}/api/mcp`);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  const callback = await approve(base, authorizationUrl, ['orders:read']);
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
