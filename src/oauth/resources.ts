/**
 * The protected resources (RFC 8707, RFC 9728) this authorization server mints tokens for: each an MCP
 * endpoint, by path under BASE_URL, and with UCP on, the UCP face (UCP_RESOURCE_PATH). A token's audience is the
 * one resource it was granted for, and only the route serving that resource accepts it. Serving a new resource
 * is one more path here, plus the route passing its own resource URL as the audience when it admits a request.
 */
export const PROTECTED_RESOURCE_PATHS = ['/api/mcp', '/api/mcp/connect'] as const;

export type ResourcePath = (typeof PROTECTED_RESOURCE_PATHS)[number];

/**
 * The UCP checkout and orders (REST under BASE_URL and /ucp/mcp) as one resource: identity linking's tokens are
 * granted for it by a buyer, never by the owner, and no MCP endpoint accepts them.
 */
export const UCP_RESOURCE_PATH = '/ucp';

/** The resource indicator (and token audience) of one protected resource. */
export function resourceUrl(baseUrl: string, path: ResourcePath | typeof UCP_RESOURCE_PATH): string {
  return `${baseUrl}${path}`;
}

/** Every MCP resource indicator a client may ask the owner for. */
export function resourceUrls(baseUrl: string): string[] {
  return PROTECTED_RESOURCE_PATHS.map((path) => resourceUrl(baseUrl, path));
}

/** The RFC 9728 metadata document of one resource; its address is what that resource's 401s advertise. */
export function resourceMetadataUrl(baseUrl: string, path: ResourcePath | typeof UCP_RESOURCE_PATH = '/api/mcp'): string {
  return `${baseUrl}/.well-known/oauth-protected-resource${path}`;
}
