import { z } from 'zod';

/**
 * Dynamic client registration is open to anyone, so what one registration may store is bounded here, before
 * oidc-provider sees it: the body, each text, each list. A real MCP host registers a name, one or two
 * redirect URIs and a few protocol choices, far inside these limits.
 */
export const REGISTRATION_BODY_LIMIT = 8 * 1024;
export const MAX_NAME_LENGTH = 200;
export const MAX_URI_LENGTH = 2000;
export const MAX_REDIRECT_URIS = 10;
const MAX_LIST_LENGTH = 10;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Schemes a browser gives a meaning of its own: never a place to send an authorization code. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:', 'ftp:', 'ws:', 'wss:']);

/** A host name or IP literal with an optional port: nothing that could end a header directive or add to it. */
const WEB_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** Whether `origin` (URL.origin of an http(s) URL) is one a Content-Security-Policy source may name as is. */
export function isPlainWebOrigin(origin: string): boolean {
  return WEB_ORIGIN.test(origin);
}

/**
 * Where a code may be sent: https anywhere; plain http only back to this machine (a desktop client's loopback
 * listener, RFC 8252 §7.3), since http to another host would let anyone read the code on the way and would
 * turn /oauth/authorize's error redirects into an open redirect; or an app's private-use scheme (RFC 8252 §7.1).
 */
export function redirectUriProblem(uri: string): string | undefined {
  const url = URL.parse(uri);
  if (!url) return `${uri} is not an absolute URI`;
  if ((url.protocol === 'https:' || url.protocol === 'http:') && !isPlainWebOrigin(url.origin)) {
    return `${uri} has a host name with characters no host name has`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname) ? undefined
      : `${uri} uses plain http on a host other than 127.0.0.1, [::1] or localhost; use https`;
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `${uri} uses the ${url.protocol.slice(0, -1)} scheme`;
  return undefined;
}

const Uri = z.string().max(MAX_URI_LENGTH, `each URI may have at most ${MAX_URI_LENGTH} characters`);
const Text = z.string().max(MAX_NAME_LENGTH, `at most ${MAX_NAME_LENGTH} characters`);

/**
 * The bounds of one registration. Members not named here are left to oidc-provider, which drops the ones it
 * does not know, but no string anywhere may be longer than a URI, and no list longer than a few items.
 */
const Registration = z.looseObject({
  client_name: Text.optional(),
  redirect_uris: z.array(Uri.refine((uri) => redirectUriProblem(uri) === undefined, { error: (issue) => redirectUriProblem(String(issue.input)) }))
    .min(1, 'at least one redirect URI')
    .max(MAX_REDIRECT_URIS, `at most ${MAX_REDIRECT_URIS} redirect URIs`),
}).superRefine((metadata, context) => {
  for (const [name, value] of Object.entries(metadata)) {
    if (typeof value === 'string' && value.length > MAX_URI_LENGTH) {
      context.addIssue({ code: 'custom', path: [name], message: `at most ${MAX_URI_LENGTH} characters` });
    }
    if (Array.isArray(value)) {
      if (value.length > MAX_LIST_LENGTH) context.addIssue({ code: 'custom', path: [name], message: `at most ${MAX_LIST_LENGTH} items` });
      if (value.some((item) => typeof item !== 'string' || item.length > MAX_URI_LENGTH)) {
        context.addIssue({ code: 'custom', path: [name], message: `only strings of at most ${MAX_URI_LENGTH} characters` });
      }
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      context.addIssue({ code: 'custom', path: [name], message: 'no nested objects' });
    }
  }
});

/** An RFC 7591 §3.2.2 error, or undefined when the registration may go on to oidc-provider. */
export type RegistrationError = { error: 'invalid_redirect_uri' | 'invalid_client_metadata'; error_description: string };

export function checkRegistration(body: string): RegistrationError | undefined {
  let metadata: unknown;
  try {
    metadata = JSON.parse(body);
  } catch {
    return { error: 'invalid_client_metadata', error_description: 'The registration must be a JSON object.' };
  }
  const parsed = Registration.safeParse(metadata);
  if (parsed.success) return undefined;
  const [issue] = parsed.error.issues;
  const field = String(issue?.path[0] ?? 'registration');
  return {
    error: field === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata',
    error_description: `${field}: ${issue?.message ?? 'invalid'}`,
  };
}
