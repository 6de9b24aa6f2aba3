// The OAuth server's fixed names, apart from provider.ts so that the routes registered at start need not load
// oidc-provider: provider.ts is imported on the first request that needs the provider (server.ts).

/** Where oidc-provider's endpoints live; the issuer itself is BASE_URL so its metadata sits at the root. */
export const OAUTH_PREFIX = '/oauth';

/** The one account an owner's consent grants under. */
export const OWNER_ACCOUNT = 'owner';

/**
 * Whether a client_id names a client metadata document: any http(s) URL does (a registered id is a UUID), so the
 * answer is then either the document or a refusal, never "unknown client".
 */
export function isDocumentClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}
