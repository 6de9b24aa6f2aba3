import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_KEY, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct } from '../helpers/fixtures.ts';
import { issueToken } from '../helpers/oauth.ts';

/** A rule may name OAuth applications by client id: a grant of that application is held, another's is not. */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.app.setBaseUrl(base);
}, 120_000);
afterAll(async () => { await t?.close(); });

async function deleteOverMcp(token: string, slug: string) {
  const response = await fetch(`${base}/api/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'products.delete', arguments: { slug, confirm: true } } }),
  });
  const text = await response.text();
  const json = /^(event|data):/.test(text) ? text.split('\n').find((line) => line.startsWith('data:'))?.slice(5) ?? '' : text;
  return (JSON.parse(json) as { result: { structuredContent?: Record<string, unknown>; isError?: boolean } }).result;
}

describe('a rule naming apps', () => {
  it('holds the named OAuth application\'s calls and lets another application\'s run', async () => {
    const held = await issueToken(base, ['products:write'], MASTER_KEY);
    const free = await issueToken(base, ['products:write'], MASTER_KEY);
    const set = await t.app.inject({
      method: 'POST', url: '/api/v1/commands/policies.set', headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
      payload: { document: { rules: [{ kind: 'tool', tool: 'products.delete', apps: [held.clientId] }] } },
    });
    expect(set.statusCode, set.body).toBe(200);

    const first = await createProduct(t);
    expect((await deleteOverMcp(held.accessToken, first.slug)).structuredContent).toMatchObject({ pending: true });
    const second = await createProduct(t);
    expect((await deleteOverMcp(free.accessToken, second.slug)).structuredContent).toEqual({ ok: true, slug: second.slug });
  }, 120_000);
});
