import type { Client } from '@modelcontextprotocol/client';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCategory, createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';
import { connect, listen } from './mcp-client.ts';
import type { Era } from './mcp-client.ts';

/** Everything an anonymous client discovers. */
const ANONYMOUS_TOOLS = ['categories.list', 'products.get', 'products.search', 'site.get_page', 'site.list_pages'];

let t: TestApp;
let url: URL;
let categorySlug: string;
let productSlug: string;
beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t);
  categorySlug = (await createCategory(t)).slug;
  await createProduct(t, { categorySlug, name: 'Round Tortoise', brand: 'Solo' });
  productSlug = (await createProduct(t, { categorySlug, name: 'Square Black', brand: 'Solo' })).slug;
});
afterAll(async () => { await t?.close(); });

async function withClient<T>(options: { key?: string; era: Era }, use: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(url, options);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

function parsedText(result: { content?: unknown }): unknown {
  const content = Array.isArray(result.content) ? result.content : [];
  expect(content).toHaveLength(1);
  expect(content[0]).toMatchObject({ type: 'text' });
  return JSON.parse(content[0].text);
}

describe.each(['legacy', 'modern'] as const)('the SDK client on the %s era', (era) => {
  it('negotiates the era it asked for', async () => {
    await withClient({ era }, async (client) => {
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      expect(client.getServerVersion()).toMatchObject({ name: 'butik', version: '1.0.0' });
    });
  });

  it('lists exactly the five anonymous tools to an anonymous client', async () => {
    const { tools } = await withClient({ era }, (client) => client.listTools());
    expect(tools.map((tool) => tool.name).sort()).toEqual(ANONYMOUS_TOOLS);
  });

  it('lists the anonymous tools plus the tools of its scopes to a key', async () => {
    const key = await t.keyWith('orders:read', 'discounts:write');
    const { tools } = await withClient({ era, key }, (client) => client.listTools());
    const expected = t.app.butik.registry.tools
      .filter((tool) => tool.anonymous || tool.scope === 'any' || tool.scope === 'orders:read' || tool.scope === 'discounts:write')
      .map((tool) => tool.name);
    expect(tools.map((tool) => tool.name).sort()).toEqual([...expected].sort());
    expect(expected).toEqual(expect.arrayContaining(['orders.list', 'orders.get', 'discounts.create', 'discounts.toggle', 'approvals.get', 'approvals.list']));
  });

  it('lists every tool to the master key, with title, description and annotations', async () => {
    const { tools } = await withClient({ era, key: master.key }, (client) => client.listTools());
    expect(tools.map((tool) => tool.name).sort()).toEqual(t.app.butik.registry.tools.map((tool) => tool.name).sort());
    const create = tools.find((tool) => tool.name === 'products.create');
    const registered = t.app.butik.registry.get('products.create');
    expect(create).toMatchObject({
      title: registered?.annotations.title,
      description: registered?.description,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    });
    // Every tool touches only this shop.
    expect(tools.filter((tool) => tool.annotations?.openWorldHint !== false).map((tool) => tool.name)).toEqual([]);
    expect(tools.find((tool) => tool.name === 'products.delete')?.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((tool) => tool.name === 'products.search')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('returns the same products.search result as REST, wrapped as {result} because it is an array', async () => {
    const input = { categorySlug, brand: 'solo' };
    const rest = await t.call('products.search', input);
    expect(rest.body.result).toHaveLength(2);
    const result = await withClient({ era }, (client) => client.callTool({ name: 'products.search', arguments: input }));
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ result: rest.body.result });
    expect(parsedText(result)).toEqual(rest.body.result);
  });

  it('returns an object result such as products.get unwrapped, equal to the REST result', async () => {
    const rest = await t.call('products.get', { slug: productSlug });
    const result = await withClient({ era }, (client) => client.callTool({ name: 'products.get', arguments: { slug: productSlug } }));
    expect(result.structuredContent).toEqual(rest.body.result);
    expect(parsedText(result)).toEqual(rest.body.result);
  });

  it('returns categories.list and a keyed tool the same way REST does', async () => {
    const key = await t.keyWith('categories:read');
    const rest = await t.call('categories.list', { includeEmpty: false }, { key });
    const result = await withClient({ era, key }, (client) => client.callTool({ name: 'categories.list', arguments: { includeEmpty: false } }));
    expect(result.structuredContent).toEqual({ result: rest.body.result });
  });

  it('answers a validation failure with isError and the problem object, without structuredContent', async () => {
    const result = await withClient({ era }, (client) => client.callTool({ name: 'products.search', arguments: { limit: 0, extra: 1 } }));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const problem = parsedText(result);
    expect(problem).toMatchObject({ status: 400, code: 'validation_failed', type: 'http://butik.test/problems/validation_failed', ok: false });
    expect(problem).toHaveProperty('errors', expect.arrayContaining([expect.objectContaining({ path: 'limit' })]));
  });

  it('answers a business failure with isError and the 404 problem', async () => {
    const result = await withClient({ era }, (client) => client.callTool({ name: 'products.get', arguments: { slug: 'no-such-product' } }));
    expect(result.isError).toBe(true);
    expect(parsedText(result)).toMatchObject({ status: 404, code: 'not_found', resolution: expect.any(String) });
  });

  it('treats a tool outside the caller\'s scopes as unknown (-32602)', async () => {
    const key = await t.keyWith('orders:read');
    await withClient({ era }, async (client) => {
      const hidden = client.callTool({ name: 'products.create', arguments: {} });
      await expect(hidden).rejects.toMatchObject({ code: -32602 });
      // It says what would open the tool; the list of tools is public in the OpenAPI document anyway.
      await expect(hidden).rejects.toThrow(
        'Unknown tool: products.create is not available to this caller; it exists and needs an API key with scope products:write.');
      const unknown = client.callTool({ name: 'no.such_tool', arguments: {} });
      await expect(unknown).rejects.toMatchObject({ code: -32602 });
      await expect(unknown).rejects.toThrow('Unknown tool: no.such_tool');
      await expect(unknown).rejects.not.toThrow('exists');
    });
    await withClient({ era, key }, async (client) => {
      const hidden = client.callTool({ name: 'discounts.create', arguments: {} });
      await expect(hidden).rejects.toMatchObject({ code: -32602 });
      await expect(hidden).rejects.toThrow('needs a key with scope discounts:write');
    });
  });

  it('runs a write through the REST code path, audited on the mcp channel', async () => {
    const slug = uniqueSlug('mcp-cat');
    const result = await withClient({ era, key: master.key }, (client) =>
      client.callTool({ name: 'categories.upsert', arguments: { slug, name: 'Via MCP' } }));
    expect(result.structuredContent).toMatchObject({ slug, name: 'Via MCP' });
    const rows = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.tool, 'categories.upsert'), eq(auditEntries.channel, 'mcp')));
    expect(rows.map((row) => row.after)).toContainEqual(expect.objectContaining({ slug }));
  });
});

it.each(['legacy', 'modern'] as const)('refuses a %s-era client with an invalid key with HTTP 401', async (era) => {
  await expect(connect(url, { key: 'bk_not-a-real-key', era })).rejects.toMatchObject({
    status: 401,
    data: { status: 401, text: expect.stringContaining('"code":"unauthorized"') },
  });
});
