/** The scheme://host[:port] of a URL, or undefined when it is not one (e.g. the opaque origin "null"). */
function originOf(value: string): string | undefined {
  try {
    const { origin } = new URL(value);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * DNS-rebinding protection for the MCP endpoints: a request that names an Origin must come from
 * the service's own origin or from one the operator listed in BUTIK_ALLOWED_ORIGINS. Requests
 * without an Origin (server-side clients) are not affected.
 */
export function isAllowedOrigin(origin: string, baseUrl: string, allowedOrigins: readonly string[]): boolean {
  const candidate = originOf(origin);
  if (candidate === undefined) return false;
  return candidate === originOf(baseUrl) || allowedOrigins.some((allowed) => originOf(allowed) === candidate);
}

const EXPOSED_HEADERS = [
  'ratelimit-policy', 'ratelimit', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after',
  'www-authenticate', 'x-request-id',
].join(', ');

/** Lets a browser page on an allowed origin read the answer. */
export function corsHeaders(origin: string): Record<string, string> {
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'Origin' };
}

/** The answer to a CORS preflight from an allowed origin. */
export function preflightHeaders(origin: string): Record<string, string> {
  return {
    ...corsHeaders(origin),
    'access-control-allow-methods': 'POST',
    'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, mcp-method, mcp-name, last-event-id',
    'access-control-max-age': '600',
  };
}

/**
 * Whether a browser says a form post came from a page of another site. A browser that sends `Sec-Fetch-Site`
 * says it outright: anything but same-origin or none (typed or bookmarked) is foreign. It compares the page's
 * origin with the address the browser actually posted to, so a shop reached by another name than BASE_URL (a
 * test on 127.0.0.1, a second host name) still signs its own people in. An older browser without it is judged by
 * `Origin`: one that is not the shop's (the opaque "null" of a sandboxed or redirected form included) is
 * foreign. Clients that send neither header are not browsers posting forms.
 */
export function isForeignPost(headers: { origin?: string | undefined; 'sec-fetch-site'?: string | string[] | undefined }, baseUrl: string): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  return headers.origin !== undefined && originOf(headers.origin) !== originOf(baseUrl);
}
