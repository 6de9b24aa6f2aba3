import type { PublishedCapability } from './profile.ts';

/**
 * The identity linking capability in the business profile (UCP 2026-04-08, docs/ucp.md#identity-linking). Its
 * `config.scopes` lists the hard gates, the scopes without which an operation is refused; Butik gates nothing
 * (guest checkout and reading an order by its id work as before), so the map is empty, and the scopes a linked
 * buyer unlocks are the optional layer: the authorization server's `scopes_supported`.
 */
export const IDENTITY_LINKING_CAPABILITY: PublishedCapability = {
  name: 'dev.ucp.common.identity_linking',
  spec: 'identity-linking',
  schema: 'common/identity_linking.json',
  since: '2026-04-08',
  config: { scopes: {} },
};
