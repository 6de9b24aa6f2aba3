import { PAGE_SIZE, SEARCH_TERMS } from './catalog.ts';
import type { Catalog } from './catalog.ts';
import type { HttpRequest } from './load-types.ts';

/** The request mixes of one run. Every connection cycles through its scenario's list. */

const JSON_HEADERS = { 'content-type': 'application/json' };

export function toolCall(tool: string, body: unknown, key?: string): HttpRequest {
  return {
    method: 'POST',
    path: `/api/v1/tools/${tool}`,
    headers: { ...JSON_HEADERS, ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  };
}

/** The same products.search as a JSON-RPC tools/call on the stateless MCP endpoint (docs/behaviour.md#transport). */
export function mcpCall(tool: string, args: unknown, key?: string): HttpRequest {
  return {
    method: 'POST',
    path: '/api/mcp',
    headers: {
      ...JSON_HEADERS,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
  };
}

export const searchWithQ = () => SEARCH_TERMS.map((q) => ({ q, limit: PAGE_SIZE }));

/** The same searches as UCP catalog search (docs/ucp.md#catalog-and-cart) on a server with UCP on. */
export function ucpSearchCall(q: string): HttpRequest {
  return {
    method: 'POST',
    path: '/catalog/search',
    headers: { ...JSON_HEADERS, 'ucp-agent': 'profile="https://platform.example/profile"' },
    body: JSON.stringify({ query: q, pagination: { limit: PAGE_SIZE } }),
  };
}
export const ucpSearchWithQ = () => SEARCH_TERMS.map(ucpSearchCall);

/** Each filter alone and in combination; exact values from the shared catalog. */
export function searchWithFilters(catalog: Catalog) {
  const [brandA = 'Lindberg', brandB = 'Ray-Ban'] = ['Lindberg', 'Ray-Ban'].filter((b) => catalog.brands.includes(b));
  return [
    { categorySlug: 'solbriller' },
    { brand: brandA },
    { frameColor: 'sølv', inStock: true },
    { lensColor: 'polariseret grå' },
    { minPriceOere: 50_000, maxPriceOere: 150_000 },
    { categorySlug: 'briller', brand: brandB },
    { featured: true, inStock: true },
    { categorySlug: 'skibriller', frameColor: 'sort', maxPriceOere: 200_000 },
  ].map((filters) => ({ ...filters, limit: PAGE_SIZE }));
}

/** The first ten pages of the whole catalog, newest first. */
export const plainPaging = () => Array.from({ length: 10 }, (_, page) => ({ limit: PAGE_SIZE, offset: page * PAGE_SIZE }));

/** Sixteen products spread over the catalog. */
export function productSlugs(catalog: Catalog, products: number): string[] {
  return Array.from({ length: 16 }, (_, i) => catalog.product(Math.floor(((i + 0.5) / 16) * products)).slug);
}

export function ordersListBodies(): unknown[] {
  return [
    { limit: PAGE_SIZE },
    { status: 'paid', limit: PAGE_SIZE },
    { email: 'kunde4711@example.dk' },
    { fromDate: '2025-03-01T00:00:00Z', toDate: '2025-03-31T23:59:59Z', limit: PAGE_SIZE },
    { status: 'shipped', fromDate: '2025-06-01T00:00:00Z', limit: PAGE_SIZE },
  ];
}
