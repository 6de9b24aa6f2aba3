import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { LEGACY_HEADERS, rpc } from './mcp-client.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

async function mcpCall(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) {
  const response = await rpc(t, {
    jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
  }, { ...LEGACY_HEADERS, authorization: `Bearer ${master.key}`, 'mcp-protocol-version': '2025-11-25' });
  expect(response.body.result.isError).toBe(true);
  return JSON.parse(response.body.result.content[0].text);
}

describe('resolutions speak the caller\'s channel (issue 12 A4)', () => {
  it('points an MCP caller at the inputSchema, a REST caller at the OpenAPI document', async () => {
    const viaMcp = await mcpCall('products.create', { slug: 'x' });
    expect(viaMcp).toMatchObject({ code: 'validation_failed', resolution: expect.stringContaining('inputSchema') });
    expect(viaMcp.resolution).not.toMatch(/OpenAPI|header/i);
    const viaRest = await t.call('products.create', { slug: 'x' }, master);
    expect(viaRest.body).toMatchObject({ code: 'validation_failed', resolution: expect.stringContaining('OpenAPI document') });
  });

  it('tells an MCP caller to change _meta["butik/idempotencyKey"], not a header, when a key is reused', async () => {
    const meta = { 'butik/idempotencyKey': `wording-${Date.now()}` };
    await rpc(t, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'categories.list', arguments: {}, _meta: meta } },
      { ...LEGACY_HEADERS, authorization: `Bearer ${master.key}`, 'mcp-protocol-version': '2025-11-25' });
    const reused = await mcpCall('products.search', {}, meta);
    expect(reused).toMatchObject({ code: 'idempotency_key_reused', resolution: expect.stringContaining('_meta["butik/idempotencyKey"]') });
    expect(reused.resolution).not.toContain('Idempotency-Key');
  });

  it('cites no SPEC section in any tool description or field description an agent reads', async () => {
    const list = await rpc(t, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { ...LEGACY_HEADERS, authorization: `Bearer ${master.key}`, 'mcp-protocol-version': '2025-11-25' });
    expect(JSON.stringify(list.body.result.tools)).not.toMatch(/SPEC §|CONTRACT §/);
  });
});
