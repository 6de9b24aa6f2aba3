import type { PublishedCapability } from './profile.ts';

/** Catalog search, catalog lookup and cart: capabilities from 2026-04-08 on, published in that version's profile only. */
export const SHOPPING_CAPABILITIES: readonly PublishedCapability[] = [
  { name: 'dev.ucp.shopping.catalog.search', spec: 'catalog/search', schema: 'shopping/catalog_search.json', since: '2026-04-08' },
  { name: 'dev.ucp.shopping.catalog.lookup', spec: 'catalog/lookup', schema: 'shopping/catalog_lookup.json', since: '2026-04-08' },
  { name: 'dev.ucp.shopping.cart', spec: 'cart', schema: 'shopping/cart.json', since: '2026-04-08' },
];
