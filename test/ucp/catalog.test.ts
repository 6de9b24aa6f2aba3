import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { PROFILE, ucp } from './helpers.ts';
import { expectValid } from './schemas-2026-04-08.ts';

/** UCP 2026-04-08 catalog search and lookup over the demo shop (Danish, DKK), REST and MCP. */
let t: TestApp;
let client: Client;
beforeAll(async () => {
  t = await createTestApp({ env: { BUTIK_UCP_MODE: 'test' } });
  await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  client = new Client({ name: 'ucp-catalog-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/ucp/mcp', address)));
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const SEARCH_RESPONSE = 'schemas/shopping/catalog_search.json#/$defs/search_response';
const LOOKUP_RESPONSE = 'schemas/shopping/catalog_lookup.json#/$defs/lookup_response';
const PRODUCT_RESPONSE = 'schemas/shopping/catalog_lookup.json#/$defs/get_product_response';
const ERROR_RESPONSE = 'schemas/shopping/types/error_response.json';

async function productsSearch(body: Record<string, unknown>) {
  const response = await t.call('products.search', { limit: 100, ...body });
  expect(response.status).toBe(200);
  return response.body.result as Array<{ id: string; slug: string; priceDkk: number; stock: number }>;
}

async function search(body: unknown) {
  const response = await ucp(t, 'POST', '/catalog/search', body);
  if (response.status === 200 && response.body.ucp.status !== 'error') expectValid(SEARCH_RESPONSE, response.body);
  else expectValid(ERROR_RESPONSE, response.body);
  return response;
}

describe('POST /catalog/search', () => {
  it('finds what products.search finds, in its order: English words on the Danish catalog, prices in DKK øre', async () => {
    const response = await search({ query: 'black polarised sunglasses' });
    expect(response.status).toBe(200);
    const expected = await productsSearch({ q: 'black polarised sunglasses' });
    expect(response.body.products.map((p: any) => p.handle)).toEqual(['midnight-navigator', 'holbrook-polariseret']);
    expect(response.body.products.map((p: any) => p.id)).toEqual(expected.map((p) => p.id));
    const [first] = response.body.products;
    expect(first.variants[0]).toMatchObject({
      price: { amount: expected[0]?.priceDkk, currency: 'DKK' },
      availability: { available: (expected[0]?.stock ?? 0) > 0 },
    });
    expect(first.url).toBe(`${BASE_URL}/products/midnight-navigator`);
    expect(response.body.ucp).toEqual({ version: '2026-04-08', capabilities: { 'dev.ucp.shopping.catalog.search': [{ version: '2026-04-08' }] } });
    expect(response.body.pagination).toEqual({ has_next_page: false });
  });

  it('pages with the cursor through exactly the products.search ranking', async () => {
    const expected = (await productsSearch({ q: 'sunglasses' })).map((p) => p.slug);
    expect(expected.length).toBeGreaterThan(10);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const response = await search({ query: 'sunglasses', pagination: { limit: 4, ...(cursor ? { cursor } : {}) } });
      expect(response.status).toBe(200);
      expect(response.body.products.length).toBeLessThanOrEqual(4);
      seen.push(...response.body.products.map((p: any) => p.handle));
      if (!response.body.pagination.has_next_page) break;
      cursor = response.body.pagination.cursor;
    }
    expect(seen).toEqual(expected);
    const defaultPage = await search({ query: 'sunglasses' });
    expect(defaultPage.body.products).toHaveLength(10);
    expect(defaultPage.body.pagination.has_next_page).toBe(true);
  });

  it('filters by category and price, and browses without a query', async () => {
    const response = await search({ filters: { categories: ['laesebriller'], price: { max: 50000 } }, context: { currency: 'DKK' } });
    const expected = await productsSearch({ categorySlug: 'laesebriller', maxPriceOere: 50000 });
    expect(response.body.products.map((p: any) => p.id)).toEqual(expected.slice(0, 10).map((p) => p.id));
    for (const product of response.body.products) {
      expect(product.categories).toEqual([{ value: 'laesebriller', taxonomy: 'merchant' }]);
      expect(product.price_range.min.amount).toBeLessThanOrEqual(50000);
    }
    const two = await search({ filters: { categories: ['laesebriller', 'Solbriller'] }, pagination: { limit: 50 } });
    const both = [...await productsSearch({ categorySlug: 'laesebriller' }), ...await productsSearch({ categorySlug: 'solbriller' })];
    expect(new Set(two.body.products.map((p: any) => p.id))).toEqual(new Set(both.map((p) => p.id)));
  });

  it('leaves a price filter in another currency out and says so', async () => {
    const response = await search({ query: 'sunglasses', filters: { price: { max: 1 } }, context: { currency: 'EUR' } });
    expect(response.body.products.length).toBeGreaterThan(0);
    expect(response.body.messages).toEqual([expect.objectContaining({ type: 'info', code: 'price_filter_ignored' })]);
  });

  it('answers no match with an empty list, and a request without inputs or with a foreign cursor with 400', async () => {
    const none = await search({ query: 'zzzyxq' });
    expect(none.status).toBe(200);
    expect(none.body.products).toEqual([]);
    const empty = await search({});
    expect(empty.status).toBe(400);
    expect(empty.body.messages[0]).toMatchObject({ type: 'error', code: 'invalid_request' });
    const cursor = await search({ query: 'sunglasses', pagination: { cursor: 'not a cursor!' } });
    expect(cursor.status).toBe(400);
    const tooLong = await search({ query: 'x'.repeat(201) });
    expect(tooLong.status).toBe(400);
  });

  it('needs UCP-Agent and refuses a version newer than 2026-04-08', async () => {
    const missing = await ucp(t, 'POST', '/catalog/search', { query: 'aviator' }, { 'ucp-agent': '' });
    expect(missing.status).toBe(400);
    expect(missing.body.messages[0].code).toBe('invalid_profile_url');
    const newer = await ucp(t, 'POST', '/catalog/search', { query: 'aviator' }, { 'ucp-agent': `profile="${PROFILE}", version="2099-01-01"` });
    expect(newer.status).toBe(422);
    expectValid(ERROR_RESPONSE, newer.body);
    const current = await ucp(t, 'POST', '/catalog/search', { query: 'aviator' }, { 'ucp-agent': `profile="${PROFILE}", version="2026-04-08"` });
    expect(current.status).toBe(200);
  });
});

describe('POST /catalog/lookup and /catalog/product', () => {
  it('resolves product ids, variant ids and handles, each product once, unknown ids as not_found messages', async () => {
    const [aviator] = await productsSearch({ q: 'aviator classic' });
    const response = await ucp(t, 'POST', '/catalog/lookup', { ids: [aviator?.id, 'aviator-classic', 'wayfarer-sort', 'no-such-thing', 'no-such-thing'] });
    expect(response.status).toBe(200);
    expectValid(LOOKUP_RESPONSE, response.body);
    const byHandle = Object.fromEntries(response.body.products.map((p: any) => [p.handle, p]));
    expect(Object.keys(byHandle).sort()).toEqual(['aviator-classic', 'wayfarer-sort']);
    expect(byHandle['aviator-classic'].variants[0].inputs).toEqual([
      { id: aviator?.id, match: 'featured' }, { id: 'aviator-classic', match: 'exact' },
    ]);
    expect(response.body.messages).toEqual([{ type: 'info', code: 'not_found', content: 'no-such-thing' }]);
  });

  it('answers only unknown ids with no products, and more than 50 ids with 400 request_too_large', async () => {
    const none = await ucp(t, 'POST', '/catalog/lookup', { ids: ['nope'] });
    expect(none.status).toBe(200);
    expect(none.body.products).toEqual([]);
    const many = await ucp(t, 'POST', '/catalog/lookup', { ids: Array.from({ length: 51 }, (_, i) => `id-${i}`) });
    expect(many.status).toBe(400);
    expect(many.body.messages[0].code).toBe('request_too_large');
    expectValid(ERROR_RESPONSE, many.body);
  });

  it('gets one product by variant id; an unknown one is 200 with ucp.status error', async () => {
    const found = await ucp(t, 'POST', '/catalog/product', { id: 'wayfarer-sort' });
    expect(found.status).toBe(200);
    expectValid(PRODUCT_RESPONSE, found.body);
    expect(found.body.product).toMatchObject({ handle: 'wayfarer-sort', variants: [{ id: 'wayfarer-sort' }] });
    const missing = await ucp(t, 'POST', '/catalog/product', { id: 'prod_invalid' });
    expect(missing.status).toBe(200);
    expectValid(ERROR_RESPONSE, missing.body);
    expect(missing.body).toMatchObject({
      ucp: { status: 'error' }, messages: [{ type: 'error', code: 'not_found', severity: 'unrecoverable', content: 'Product not found: prod_invalid' }],
    });
  });
});

describe('catalog over MCP at /ucp/mcp', () => {
  const meta = { 'ucp-agent': { profile: PROFILE } };

  it('lists search_catalog, lookup_catalog and get_product and answers them as REST does', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['search_catalog', 'lookup_catalog', 'get_product']));
    const searched = await client.callTool({ name: 'search_catalog', arguments: { meta, catalog: { query: 'black polarised sunglasses' } } });
    expectValid(SEARCH_RESPONSE, searched.structuredContent);
    const rest = await search({ query: 'black polarised sunglasses' });
    expect(searched.structuredContent).toEqual(rest.body);
    const looked = await client.callTool({ name: 'lookup_catalog', arguments: { meta, catalog: { ids: ['wayfarer-sort'] } } });
    expectValid(LOOKUP_RESPONSE, looked.structuredContent);
    const product = await client.callTool({ name: 'get_product', arguments: { meta, catalog: { id: 'nope' } } });
    expect(product.structuredContent).toMatchObject({ ucp: { status: 'error' }, messages: [{ code: 'not_found' }] });
  });

  it('refuses a call without meta["ucp-agent"] and a broken request as JSON-RPC errors', async () => {
    await expect(client.callTool({ name: 'search_catalog', arguments: { catalog: { query: 'x' } } })).rejects.toMatchObject({ code: -32001 });
    await expect(client.callTool({ name: 'search_catalog', arguments: { meta, catalog: {} } })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('discovery', () => {
  it('advertises catalog search, lookup and cart at 2026-04-08', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/ucp' });
    const registry: Record<string, Array<{ version: string }>> = JSON.parse(response.body).ucp.capabilities;
    const names = Object.entries(registry).flatMap(([name, entries]) => entries.map((entry) => `${name}@${entry.version}`));
    expect(names).toEqual(expect.arrayContaining([
      'dev.ucp.shopping.catalog.search@2026-04-08', 'dev.ucp.shopping.catalog.lookup@2026-04-08', 'dev.ucp.shopping.cart@2026-04-08',
    ]));
  });
});
