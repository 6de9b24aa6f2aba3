import { z } from 'zod';

/** The scopes of the tools (docs/behaviour.md#api-keys-and-scopes), the ones OAuth grants and the OpenAPI document lists. */
export const TOOL_SCOPES = [
  'analytics:read', 'audit:read', 'audit:revert', 'cart:write', 'catalog:read', 'categories:read',
  'categories:write', 'customer:read', 'discounts:read', 'discounts:write', 'features:read', 'features:write',
  'marketing:write', 'orders:read', 'orders:write', 'pages:read', 'pages:write', 'products:write',
  'settings:read', 'settings:write',
] as const;

/** With BUTIK_UCP_AUTH=key, a UCP platform's key must hold this scope. */
export const UCP_SCOPE = 'ucp:checkout';

/** Every scope a key can hold. */
export const SCOPES = [...TOOL_SCOPES, UCP_SCOPE] as const;

export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

/**
 * The UCP scopes a platform may ask a buyer for in identity linking (docs/ucp.md#identity-linking). They are
 * never an API key's: only a buyer's consent grants them, on tokens for the UCP resource alone.
 */
export const UCP_BUYER_SCOPES = ['dev.ucp.shopping.checkout:manage', 'dev.ucp.shopping.order:read'] as const;
export type UcpBuyerScope = (typeof UCP_BUYER_SCOPES)[number];

export function isUcpBuyerScope(scope: string): scope is UcpBuyerScope {
  return (UCP_BUYER_SCOPES as readonly string[]).includes(scope);
}
