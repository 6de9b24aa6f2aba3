import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ucpCheckoutSessions } from '../../src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { flowerShop, ucp } from './helpers.ts';

const LINE = { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 1 }] };

/** Profiles a platform might serve, by path: not JSON, JSON but not UCP, UCP sharing nothing, UCP sharing the order capability. */
const PROFILES: Record<string, string> = {
  '/not-json': '<html>Welcome</html>',
  '/not-ucp': JSON.stringify({ name: 'a platform' }),
  '/strangers': JSON.stringify({ ucp: { version: '2026-04-08', capabilities: { 'com.example.loyalty': [{ version: '2026-04-08' }] } } }),
  '/orders-only': JSON.stringify({ ucp: { version: '2026-04-08', capabilities: { 'dev.ucp.shopping.order': [{ version: '2026-04-08' }] } } }),
};

let t: TestApp;
let server: Server;
let origin = '';
const agent = (path: string) => ({ 'ucp-agent': `profile="${origin}${path}"` });
const sessions = async () => (await t.database.db.select({ n: count() }).from(ucpCheckoutSessions))[0]?.n;

beforeAll(async () => {
  server = createServer((request, response) => {
    const body = PROFILES[request.url ?? ''];
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await flowerShop();
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('UCP negotiation errors (2026-04-08)', () => {
  it('refuses a profile that is not JSON, or not a UCP profile, with 422 profile_malformed and creates nothing', async () => {
    const before = await sessions();
    for (const path of ['/not-json', '/not-ucp']) {
      const refused = await ucp(t, 'POST', '/checkout-sessions', LINE, agent(path));
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ code: 'profile_malformed', content: expect.stringContaining(`${origin}${path}`) });
    }
    expect(await sessions()).toBe(before);
  });

  it('answers a profile sharing no capability with the shop as a business outcome: 200 capabilities_incompatible', async () => {
    const before = await sessions();
    const answer = await ucp(t, 'POST', '/checkout-sessions', LINE, agent('/strangers'));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      ucp: { version: '2026-04-08', status: 'error' },
      messages: [{ type: 'error', code: 'capabilities_incompatible', severity: 'unrecoverable', content: expect.stringContaining('dev.ucp.shopping.checkout') }],
      continue_url: expect.any(String),
    });
    expect(await sessions()).toBe(before);
  });

  it('serves a profile sharing one capability, and one it cannot read, as before', async () => {
    expect((await ucp(t, 'POST', '/checkout-sessions', LINE, agent('/orders-only'))).status).toBe(201);
    expect((await ucp(t, 'POST', '/checkout-sessions', LINE, agent('/missing'))).status).toBe(201);
  });

  it('answers the MCP binding with -32001 for a malformed profile', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_checkout', arguments: { meta: { 'ucp-agent': { profile: `${origin}/not-ucp` } }, checkout: LINE } } };
    const response = await t.app.inject({
      method: 'POST', url: '/ucp/mcp', payload: call,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...agent('/not-ucp') },
    });
    expect(response.body).toContain('"code":-32001');
    expect(response.body).toContain('profile_malformed');
  });
});
