import { z } from 'zod';

/** SPEC §5: every scope a key can hold. */
export const SCOPES = [
  'analytics:read', 'audit:read', 'audit:revert', 'cart:write', 'catalog:read', 'categories:read',
  'categories:write', 'customer:read', 'discounts:read', 'discounts:write', 'features:read', 'features:write',
  'marketing:write', 'orders:read', 'orders:write', 'pages:read', 'pages:write', 'products:write',
  'settings:read', 'settings:write',
] as const;

export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;
