import { errors } from 'oidc-provider';
import type { AdapterPayload } from 'oidc-provider';
import { z } from 'zod';
import { OutboundError, sendOutbound } from '../outbound/fetch.ts';
import { MAX_NAME_LENGTH, MAX_REDIRECT_URIS, MAX_URI_LENGTH, redirectUriProblem } from './registration.ts';

/**
 * Client ID Metadata Documents: an MCP host that does not register names itself by the https URL of a JSON
 * document (its client_id, name, logo, redirect URIs), which the shop fetches through the one outbound fetcher.
 * The document is the host's registration, read again when the cache says so, never trusted beyond the checks
 * below; a failure is an OAuth error the host can read (invalid_client, saying which check failed).
 */
const DOCUMENT_MAX_BYTES = 5 * 1024;
const DOCUMENT_TIMEOUT_MS = 3_000;
/** A document's own Cache-Control max-age is honoured between these bounds; without one, the default. */
const CACHE_MIN_SECONDS = 60;
const CACHE_MAX_SECONDS = 3600;
const CACHE_DEFAULT_SECONDS = 300;
/** A failed fetch is remembered this long, so a broken or hostile document is not fetched on every request. */
const FAILURE_CACHE_SECONDS = 30;
/** Enough for every host that connects within an hour; the oldest entry leaves first. */
const MAX_CACHED = 500;

const LOOPBACK_DOCUMENT_HOSTS = new Set(['127.0.0.1', 'localhost']);
/** The members that carry a client secret: a document is public, anyone can read it. */
const SECRET_MEMBERS = ['client_secret', 'client_secret_expires_at'];

type ClientDocumentOptions = {
  /** BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS: loopback http documents are allowed, and fetched under the test policy. */
  loopback: boolean;
  /** The document's client is kept for the console (Connected apps) each time it is fetched. */
  remember: (payload: AdapterPayload) => Promise<void>;
};

/** A check that failed, as the host reads it: an OAuth invalid_client error whose description names the check. */
class DocumentRefused extends Error {}

function refused(check: string): DocumentRefused {
  return new DocumentRefused(`client metadata document refused: ${check}`);
}

/** Why this URL may not be fetched as a document, or undefined when it may. */
function urlProblem(clientId: string, loopback: boolean): string | undefined {
  const url = URL.parse(clientId);
  if (!url || url.href !== clientId) return 'the client_id is not a URL in its normal form';
  if (url.username || url.password || url.hash || clientId.includes('#')) return 'the client_id URL may have no user name, password or fragment';
  if (url.pathname === '/' || url.pathname === '') return 'the client_id URL must have a path';
  if (url.protocol === 'https:') return undefined;
  if (loopback && url.protocol === 'http:' && LOOPBACK_DOCUMENT_HOSTS.has(url.hostname)) return undefined;
  return 'the client_id URL must use https';
}

const OptionalHttpsUri = z.string().max(MAX_URI_LENGTH).optional().catch(undefined)
  .transform((uri) => (uri && URL.parse(uri)?.protocol === 'https:' ? uri : undefined));

/** The members the shop reads; the rest of a document (scope, contacts …) is ignored. */
const Document = z.looseObject({
  client_name: z.string('client_name must be text').max(MAX_NAME_LENGTH, `client_name has more than ${MAX_NAME_LENGTH} characters`).optional(),
  redirect_uris: z.array(z.string().max(MAX_URI_LENGTH, `each redirect URI may have at most ${MAX_URI_LENGTH} characters`), 'redirect_uris must be a list of URIs')
    .min(1, 'redirect_uris must list at least one URI')
    .max(MAX_REDIRECT_URIS, `redirect_uris may list at most ${MAX_REDIRECT_URIS} URIs`),
  // Only https logos and home pages are shown (the consent page's CSP allows no other images); others are dropped.
  logo_uri: OptionalHttpsUri,
  client_uri: OptionalHttpsUri,
});

/** The Client payload oidc-provider builds from a document: a public web client, PKCE, exact redirect URIs. */
function clientPayload(clientId: string, text: string): AdapterPayload {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw refused('the document is not JSON');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw refused('the document is not a JSON object');
  const claimed: Record<string, unknown> = json as Record<string, unknown>;
  if (typeof claimed.client_id !== 'string') throw refused('the document has no client_id');
  if (claimed.client_id !== clientId) throw refused(`its client_id ${JSON.stringify(claimed.client_id.slice(0, 200))} is not the URL it was fetched from`);
  const secret = SECRET_MEMBERS.find((member) => member in claimed);
  if (secret) throw refused(`it contains ${secret}; a document is public and its client may have no secret`);
  const method = claimed.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw refused(`token_endpoint_auth_method ${JSON.stringify(String(method).slice(0, 50))}; a document's client is public (none, with PKCE)`);
  }
  const parsed = Document.safeParse(claimed);
  if (!parsed.success) throw refused(parsed.error.issues[0]?.message ?? 'the document is malformed');
  const document = parsed.data;
  const badUri = document.redirect_uris.map(redirectUriProblem).find((problem) => problem !== undefined);
  if (badUri) throw refused(`redirect_uris: ${badUri}`);
  return {
    client_id: clientId,
    ...(document.client_name ? { client_name: document.client_name } : {}),
    ...(document.logo_uri ? { logo_uri: document.logo_uri } : {}),
    ...(document.client_uri ? { client_uri: document.client_uri } : {}),
    redirect_uris: document.redirect_uris,
    // web: a redirect URI must match one listed exactly (native would let a loopback URI change its port).
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

/** max-age from Cache-Control, within the bounds; no-store and no-cache count as the minimum. */
export function cacheSeconds(cacheControl: string | string[] | undefined): number {
  const value = Array.isArray(cacheControl) ? cacheControl.join(',') : (cacheControl ?? '');
  if (/(?:^|,)\s*no-(?:store|cache)\b/i.test(value)) return CACHE_MIN_SECONDS;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(value);
  if (!maxAge) return CACHE_DEFAULT_SECONDS;
  return Math.min(CACHE_MAX_SECONDS, Math.max(CACHE_MIN_SECONDS, Number(maxAge[1])));
}

type Cached = { until: number; outcome: { ok: true; payload: AdapterPayload } | { ok: false; description: string } };

/** Fetches, checks and caches client metadata documents; one per provider. */
export function clientDocuments(options: ClientDocumentOptions) {
  const cache = new Map<string, Cached>();
  const pending = new Map<string, Promise<Cached>>();

  async function fetchDocument(clientId: string): Promise<Cached> {
    const fetched = await checkedDocument(clientId);
    // Outside the refusals: the shop failing to save is its own error, not the host's.
    if (fetched.outcome.ok) await options.remember(fetched.outcome.payload);
    return fetched;
  }

  async function checkedDocument(clientId: string): Promise<Cached> {
    try {
      const answer = await sendOutbound({
        method: 'GET', url: clientId, headers: { accept: 'application/json' }, timeoutMs: DOCUMENT_TIMEOUT_MS, maxBytes: DOCUMENT_MAX_BYTES,
      }, options.loopback ? 'test' : 'live');
      if (answer.status >= 300 && answer.status < 400) {
        throw refused(`its URL answered with a redirect (status ${answer.status}); the document must be served at the client_id URL itself`);
      }
      if (answer.status !== 200) throw refused(`its URL answered with status ${answer.status}, not 200`);
      const payload = clientPayload(clientId, answer.text);
      return { until: Date.now() + cacheSeconds(answer.headers['cache-control']) * 1000, outcome: { ok: true, payload } };
    } catch (error) {
      const refusal = error instanceof DocumentRefused ? error
        : refused(`it could not be fetched (${error instanceof OutboundError ? error.message : 'the request failed'})`);
      return { until: Date.now() + FAILURE_CACHE_SECONDS * 1000, outcome: { ok: false, description: refusal.message } };
    }
  }

  return {
    /** The client a document URL describes, or an invalid_client error saying which check failed. */
    async find(clientId: string): Promise<AdapterPayload> {
      const problem = urlProblem(clientId, options.loopback);
      if (problem) throw new errors.InvalidClient(refused(problem).message);
      let entry = cache.get(clientId);
      if (!entry || entry.until <= Date.now()) {
        let request = pending.get(clientId);
        if (!request) {
          request = fetchDocument(clientId).finally(() => pending.delete(clientId));
          pending.set(clientId, request);
        }
        entry = await request;
        cache.delete(clientId);
        cache.set(clientId, entry);
        if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value ?? '');
      }
      // A new error each time: oidc-provider keeps per-request state on the error it is given.
      if (!entry.outcome.ok) throw new errors.InvalidClient(entry.outcome.description);
      return entry.outcome.payload;
    },
  };
}
