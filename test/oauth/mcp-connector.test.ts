import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_LIST_BOUND } from '../mcp/tool-list-bound.ts';
import { listeningTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { approve, memoryAuthProvider, tickedOn } from '../helpers/oauth-host.ts';

let t: TestApp;
let base: string;

beforeAll(async () => {
  ({ t, base } = await listeningTestApp());
});
afterAll(async () => t.close());

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('the connector URL /api/mcp/connect', () => {
  it('answers an anonymous request 401 with the RFC 9728 challenge naming its own metadata, while /api/mcp stays open', async () => {
    const connector = await fetch(`${base}/api/mcp/connect`, { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
    expect(connector.status).toBe(401);
    expect(connector.headers.get('www-authenticate'))
      .toBe(`Bearer realm="butik", resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp/connect"`);
    expect(await connector.json()).toMatchObject({ code: 'unauthorized', detail: expect.stringContaining('sign-in') });

    const open = await fetch(`${base}/api/mcp`, { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
    expect(open.status).toBe(200);

    const metadata = await (await fetch(`${base}/.well-known/oauth-protected-resource/api/mcp/connect`)).json();
    expect(metadata).toMatchObject({ resource: `${base}/api/mcp/connect`, authorization_servers: [base] });
  });

  it('signs the official SDK client in through its authProvider alone, and steps the grant up when a tool needs another scope', async () => {
    const { provider, store } = memoryAuthProvider();
    const url = new URL(`${base}/api/mcp/connect`);
    // No token, no auth() call: the connector's 401 is what starts discovery, registration and the redirect.
    const first = await new Client({ name: 'connector-test', version: '1.0.0' })
      .connect(new StreamableHTTPClientTransport(url, { authProvider: provider })).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(UnauthorizedError);
    const [authorization] = store.authorizations;
    if (!authorization) throw new Error('the SDK did not start an authorization');
    expect(authorization.searchParams.get('resource')).toBe(`${base}/api/mcp/connect`);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');

    const callback = await approve(base, authorization, ['orders:read']);
    // The host's fetch, watched: the step-up's challenge is read off the wire as the SDK receives it.
    const challenges: string[] = [];
    const watched: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 403) challenges.push(response.headers.get('www-authenticate') ?? '');
      return response;
    };
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: watched });
    await transport.finishAuth(callback.searchParams);
    expect(store.tokens?.scope?.split(' ')).toContain('orders:read');

    const client = new Client({ name: 'connector-test', version: '1.0.0' });
    await client.connect(transport);
    // The connector lists every tool to a sign-in, each with its scope; one outside the grant says calling it asks for it.
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(t.app.butik.registry.tools.map((tool) => tool.name));
    // What the connector adds to the full list of tool-schemas.test.ts: a scope per tool (~1.5 KB) and the note on
    // each tool outside this one-scope grant (~5 KB).
    expect(JSON.stringify({ tools }).length).toBeLessThan(TOOL_LIST_BOUND + 7_000);
    const orders = tools.find((tool) => tool.name === 'orders.list');
    expect(orders?._meta?.['butik/scope']).toBe('orders:read');
    expect(orders?.description).not.toContain('Needs scope');
    const upsert = tools.find((tool) => tool.name === 'categories.upsert');
    expect(upsert?._meta?.['butik/scope']).toBe('categories:write');
    expect(upsert?.description?.split('\n').at(-1))
      .toBe('Needs scope categories:write, which this sign-in was not granted; calling it asks for it.');
    const listed = await client.callTool({ name: 'orders.list', arguments: {} });
    expect(listed.isError).not.toBe(true);
    expect(listed.structuredContent).toHaveProperty('result');

    // A write tool outside the grant: the 403 insufficient_scope names what the token has plus categories:write,
    // and sends the SDK back to the owner for exactly that.
    const category = { slug: 'trin-op', name: 'Trin op' };
    const stepUp = await client.callTool({ name: 'categories.upsert', arguments: category }).catch((error: unknown) => error);
    expect(stepUp).toBeInstanceOf(UnauthorizedError);
    expect(challenges).toEqual([`Bearer realm="butik", error="insufficient_scope", scope="orders:read categories:write", `
      + `resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp/connect"`]);
    expect(store.authorizations).toHaveLength(2);
    const again = store.authorizations[1];
    if (!again) throw new Error('the SDK did not step the grant up');
    const asked = again.searchParams.get('scope')?.split(' ') ?? [];
    expect(asked).toEqual(expect.arrayContaining(['orders:read', 'categories:write']));
    await client.close();

    // The owner approves what was asked; the host finishes the new authorization and sends the call again.
    const wider = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: watched });
    let consentPage = '';
    await wider.finishAuth((await approve(base, again, asked, (page) => { consentPage = page; })).searchParams);
    // The consent page opened with exactly the shop scopes asked ticked (offline_access and openid are no boxes):
    // the owner approves the step as it came.
    expect(tickedOn(consentPage)).toEqual(asked.filter((scope) => scope.includes(':')).sort());
    expect(store.tokens?.scope?.split(' ')).toEqual(expect.arrayContaining(['orders:read', 'categories:write']));
    const retried = new Client({ name: 'connector-test', version: '1.0.0' });
    await retried.connect(wider);
    const written = await retried.callTool({ name: 'categories.upsert', arguments: category });
    expect(written.isError, JSON.stringify(written.content)).not.toBe(true);
    expect(written.structuredContent).toMatchObject(category);
    expect((await retried.callTool({ name: 'orders.list', arguments: {} })).isError).not.toBe(true);
    expect(challenges).toHaveLength(1);
    await retried.close();
  });

  it('answers a signed-in call of a tool outside the grant 403 insufficient_scope, naming the scope in the challenge and the problem', async () => {
    const { provider, store } = memoryAuthProvider();
    const url = new URL(`${base}/api/mcp/connect`);
    await new Client({ name: 'connector-test', version: '1.0.0' })
      .connect(new StreamableHTTPClientTransport(url, { authProvider: provider })).catch(() => undefined);
    const [authorization] = store.authorizations;
    if (!authorization) throw new Error('the SDK did not start an authorization');
    await new StreamableHTTPClientTransport(url, { authProvider: provider })
      .finishAuth((await approve(base, authorization, ['orders:read'])).searchParams);
    const token = store.tokens?.access_token ?? '';

    const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'discounts.list', arguments: {} } });
    const refused = await fetch(url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${token}` }, body: call });
    expect(refused.status).toBe(403);
    // The token's scopes and the one needed, so a host that asks for exactly this list keeps what it had.
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer realm="butik", error="insufficient_scope", scope="orders:read discounts:read", resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp/connect"`,
    );
    const problem = await refused.json();
    expect(problem).toMatchObject({ code: 'insufficient_scope', detail: expect.stringContaining('discounts:read') });
    expect(problem.resolution).toMatch(/OAuth/);
  });
});
