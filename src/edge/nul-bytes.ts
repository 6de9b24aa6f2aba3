/**
 * NUL bytes (docs/behaviour.md#nul-bytes): no path, id, name or parameter of the shop contains one, and
 * PostgreSQL's text and jsonb refuse it, so a request carrying one is refused at the door with a 400 instead of
 * reaching a query and failing there as a 500. The tool API's own fields are already refused by their schemas
 * (schema/storable-text.ts); these checks cover what reaches a route before any schema: the URL, and the raw
 * form or JSON bodies the OAuth server reads.
 */
const ESCAPED_NUL = /%00|\\u0000/i;

/**
 * The faces whose routes hand path and query values to the database or to oidc-provider unchecked: the console
 * and the OAuth server. The tool API and UCP read theirs through schemas, and answer a NUL id as no such record.
 */
export function guardsNul(url: string): boolean {
  return url.startsWith('/admin') || url.startsWith('/oauth/');
}

/** A URL with a NUL in its path or query, escaped (%00) or raw. */
export function urlHasNul(url: string): boolean {
  return url.includes('\0') || url.toLowerCase().includes('%00');
}

/** A form or JSON body with a NUL: raw, form-escaped (%00) or JSON-escaped (\u0000). */
export function bodyHasNul(body: string): boolean {
  return body.includes('\0') || ESCAPED_NUL.test(body);
}

export const NUL_REFUSAL = 'The request contains a NUL byte (%00, \\u0000), which no name, id or parameter of this shop contains; '
  + 'remove it and send the request again.';
