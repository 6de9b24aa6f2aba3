import { SHOPPING_VERSION } from './shopping-answer.ts';

const BASE = `https://ucp.dev/${SHOPPING_VERSION}`;

/**
 * The discovery declarations of catalog and cart (capability.json#/$defs/business_schema), for the business
 * profile at /.well-known/ucp. They are 2026-04-08 capabilities and say so in their own version.
 */
export const SHOPPING_CAPABILITIES = [
  { name: 'dev.ucp.shopping.catalog.search', spec: `${BASE}/specification/catalog/search`, schema: `${BASE}/schemas/shopping/catalog_search.json` },
  { name: 'dev.ucp.shopping.catalog.lookup', spec: `${BASE}/specification/catalog/lookup`, schema: `${BASE}/schemas/shopping/catalog_lookup.json` },
  { name: 'dev.ucp.shopping.cart', spec: `${BASE}/specification/cart`, schema: `${BASE}/schemas/shopping/cart.json` },
].map((capability) => ({ ...capability, version: SHOPPING_VERSION }));
