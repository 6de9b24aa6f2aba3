import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, MASTER_KEY } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { send } from '../helpers/http.ts';
import { LEGACY_HEADERS, rpc } from '../mcp/mcp-client.ts';

// The OAuth provider and the MCP SDK are loaded by the first request that needs them (src/edge/lazy.ts). On a
// fresh app, several such first requests arrive at once here, and each must be answered in full.
// store-independent: the race is over loading modules in memory; no request here writes to the database.
let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('faces loaded on their first request', () => {
  it('answers concurrent first MCP requests at both addresses, each with the whole tool list', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const signedIn = { ...LEGACY_HEADERS, authorization: `Bearer ${MASTER_KEY}` };
    const answers = await Promise.all([
      rpc(t, list), rpc(t, list), rpc(t, list, signedIn),
      send(t, { method: 'POST', url: '/api/mcp/connect', headers: signedIn, payload: JSON.stringify(list) }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const names = (answer: { body: any }) => (answer.body.result.tools as Array<{ name: string }>).map((tool) => tool.name);
    const [anonymous, again, owner] = answers;
    expect(names(anonymous)).toContain('products.search');
    expect(names(again)).toEqual(names(anonymous));
    expect(names(owner)).toContain('orders.list');
    expect(names(anonymous)).not.toContain('orders.list');
  });

  it('answers concurrent first OAuth requests with the same authorization server metadata', async () => {
    const answers = await Promise.all(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration',
      '/.well-known/oauth-authorization-server'].map((url) => send(t, { method: 'GET', url })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers[0]?.body.issuer).toBe('http://butik.test');
    expect(answers[0]?.body.token_endpoint).toMatch(/\/oauth\/token$/);
    expect(answers.map((answer) => answer.body)).toEqual([answers[0]?.body, answers[0]?.body, answers[0]?.body]);
  });
});
