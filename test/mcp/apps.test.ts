import { createRequire } from 'node:module';
import type { Client } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAppView } from '../../src/mcp/apps/resources.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';
import { connect, listen } from './mcp-client.ts';

const VIEWS = { 'ui://butik/product-card': ['products.get', 'products.search'], 'ui://butik/cart': ['cart.create', 'cart.get', 'cart.set_item', 'cart.apply_discount'] };

/** The extension's own JSON Schema, from the SDK package: what a host expects `_meta.ui` to be. */
const extensionSchema = createRequire(import.meta.url)('@modelcontextprotocol/ext-apps/schema.json') as { $defs: Record<string, object> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validResourceMeta = ajv.compile(extensionSchema.$defs.McpUiResourceMeta!);
const validToolMeta = ajv.compile(extensionSchema.$defs.McpUiToolMeta!);

let t: TestApp;
let url: URL;
let productSlug: string;
beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t);
  productSlug = (await createProduct(t, { name: 'Aviator Apps', images: [`${BASE_URL}/images/demo/aviator.jpg`] })).slug;
});
afterAll(async () => { await t?.close(); });

async function withClient<T>(path: string, key: string | undefined, use: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(new URL(path, url), key === undefined ? {} : { key });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe('MCP Apps resources', () => {
  it.each([['/api/mcp', undefined], ['/api/mcp/connect', master.key]])('%s lists both views and reads each as self-contained HTML', async (path, key) => {
    await withClient(path, key, async (client) => {
      expect(client.getServerCapabilities()?.resources).toBeDefined();
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri).sort()).toEqual(Object.keys(VIEWS).sort());
      for (const resource of resources) {
        expect(resource.mimeType).toBe(RESOURCE_MIME_TYPE);
        const read = await client.readResource({ uri: resource.uri });
        expect(read.contents).toHaveLength(1);
        const [content] = read.contents as Array<{ uri: string; mimeType: string; text: string; _meta: { ui: unknown } }>;
        expect(content).toMatchObject({ uri: resource.uri, mimeType: RESOURCE_MIME_TYPE });
        expect(validResourceMeta(content!._meta.ui), JSON.stringify(validResourceMeta.errors)).toBe(true);
        // No connections, and images from the shop only.
        expect(content!._meta.ui).toMatchObject({ csp: { connectDomains: [], resourceDomains: [BASE_URL] } });
        const html = content!.text;
        expect(html).toMatch(/^<!doctype html>/);
        expect(html).toContain('data-currency="DKK"');
        expect(html).toContain(`data-origin="${BASE_URL}"`);
        // The App script is inside the page: no script or stylesheet is fetched from anywhere.
        expect(html).toMatch(/<script type="module">.+ui\/notifications\/tool-result.+<\/script>/s);
        expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
      }
    });
  });

  it('answers an unknown ui:// URI as a resource not found', async () => {
    await withClient('/api/mcp', undefined, async (client) => {
      await expect(client.readResource({ uri: 'ui://butik/nothing' })).rejects.toThrow(/Unknown resource: ui:\/\/butik\/nothing/);
    });
  });

  it('names each view in the listings of the tools whose results it draws, and no other', async () => {
    await withClient('/api/mcp', master.key, async (client) => {
      const { tools } = await client.listTools();
      const expected = new Map(Object.entries(VIEWS).flatMap(([uri, names]) => names.map((name) => [name, uri] as const)));
      for (const tool of tools) {
        const uri = expected.get(tool.name);
        if (uri === undefined) {
          expect(tool._meta?.ui, tool.name).toBeUndefined();
          continue;
        }
        // Other members of _meta may sit beside these; the view adds only the two keys.
        expect(tool._meta?.ui, tool.name).toEqual({ resourceUri: uri });
        expect(tool._meta?.[RESOURCE_URI_META_KEY], tool.name).toBe(uri);
        expect(validToolMeta(tool._meta!.ui)).toBe(true);
      }
      expect(tools.filter((tool) => tool._meta?.ui !== undefined)).toHaveLength(expected.size);
    });
  });

  it('keeps what else a listing carries in _meta, and leaves a tool without a view as it is', () => {
    const listing = { name: 'cart.get', inputSchema: { type: 'object' as const }, _meta: { 'butik/other': 1 } };
    expect(withAppView(listing)._meta).toEqual({ 'butik/other': 1, ui: { resourceUri: 'ui://butik/cart' }, [RESOURCE_URI_META_KEY]: 'ui://butik/cart' });
    const plain = { name: 'orders.get', inputSchema: { type: 'object' as const } };
    expect(withAppView(plain)).toBe(plain);
  });

  it('leaves the results of those tools as they were: the REST result as text and as structuredContent', async () => {
    const product = (await t.call('products.get', { slug: productSlug })).body.result;
    const found = (await t.call('products.search', { q: 'Aviator Apps' })).body.result;
    const cart = (await t.call('cart.create', { items: [{ slug: productSlug, quantity: 2 }] }, master)).body.result as { cartId: string };
    await withClient('/api/mcp', master.key, async (client) => {
      const calls: Array<[string, Record<string, unknown>, unknown, unknown]> = [
        ['products.get', { slug: productSlug }, product, product],
        ['products.search', { q: 'Aviator Apps' }, found, { result: found }],
        ['cart.get', { cartId: cart.cartId }, cart, cart],
      ];
      for (const [name, args, result, structured] of calls) {
        const answer = await client.callTool({ name, arguments: args });
        expect(answer.content, name).toEqual([{ type: 'text', text: JSON.stringify(result) }]);
        expect(answer.structuredContent, name).toEqual(structured);
        expect(answer._meta?.ui, name).toBeUndefined();
      }
    });
  });
});
