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

describe('resolutions speak the caller\'s channel', () => {
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
    // Neither the title, the detail nor the resolution sends an MCP caller to a header it cannot set.
    expect(JSON.stringify(reused)).not.toContain('Idempotency-Key');
  });

  it('tells an MCP caller of cart.checkout how to retry safely over MCP, not only with a header', async () => {
    const list = await rpc(t, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { ...LEGACY_HEADERS, authorization: `Bearer ${master.key}`, 'mcp-protocol-version': '2025-11-25' });
    const tools: Array<{ name: string; description: string }> = list.body.result.tools;
    expect(tools.find((tool) => tool.name === 'cart.checkout')?.description).toContain('_meta["butik/idempotencyKey"]');
    for (const tool of tools) {
      if (!/Idempotency-Key/.test(tool.description)) continue;
      expect(tool.description, tool.name).toContain('_meta["butik/idempotencyKey"]');
    }
  });

  it('cites no SPEC section in any tool description or field description an agent reads', async () => {
    const list = await rpc(t, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { ...LEGACY_HEADERS, authorization: `Bearer ${master.key}`, 'mcp-protocol-version': '2025-11-25' });
    expect(JSON.stringify(list.body.result.tools)).not.toMatch(/(SPEC|CONTRACT) §/);
  });
});
