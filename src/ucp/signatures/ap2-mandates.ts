import { createHash } from 'node:crypto';
import { decodeSdJwtSync, getClaimsSync } from '@sd-jwt/decode';
import canonicalize from 'canonicalize';
import { decodeProtectedHeader, errors, importJWK, jwtVerify } from 'jose';
import type { JWK } from 'jose';
import { UcpError } from '../core/errors.ts';
import { openCheckoutJwt } from './merchant-authorization.ts';
import { AP2_MANDATE_CAPABILITY } from '../checkout/shapes.ts';
import type { ProfileKey } from './platform-profile.ts';
import type { PublicJwk } from './signing-keys.ts';
import type { UcpVersion } from '../core/versions.ts';

type Json = Record<string, unknown>;

/** The version whose AP2 mandate extension Butik implements; older versions' sessions never negotiate it. */
export const AP2_SINCE: UcpVersion = '2026-04-08';

/**
 * Whether a call runs under the AP2 mandate extension: the platform's profile lists it (an unread profile lists
 * nothing: the extension needs the platform's keys) and the call speaks a version that has it.
 */
export function ap2Negotiated(version: UcpVersion, platformCapabilities: readonly string[] | null): boolean {
  return version >= AP2_SINCE && platformCapabilities?.includes(AP2_MANDATE_CAPABILITY) === true;
}

/** The algorithms the extension allows for a mandate's signatures. */
const ALGORITHMS = ['ES256', 'ES384', 'ES512'];
/** AP2's type of a closed checkout mandate. */
const CHECKOUT_MANDATE_TYPE = 'mandate.checkout.1';
/** A key-binding JWT made longer ago than this is stale; the mandate as a whole is bounded by its own `exp`. */
const KB_MAX_AGE_S = 5 * 60;

/** A refused mandate: the extension's error code (lower-cased on the wire), 422, and the session stays open. */
const refused = (code: string, message: string) => new UcpError(422, code, message, { severity: 'recoverable' });

export const mandateRequired = () => refused('MANDATE_REQUIRED', 'This checkout runs under the AP2 mandate extension: complete it with ap2.checkout_mandate.');

const sha256 = (data: string | ArrayBuffer): Uint8Array =>
  createHash('sha256').update(typeof data === 'string' ? data : Buffer.from(data)).digest();
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * RFC 9901 ends an SD-JWT without key binding in `~`; UCP's schema writes the same credential without the
 * trailing `~`. Both are read as the issuer's JWT, its disclosures and an optional key-binding JWT.
 */
function presentation(mandate: string): string {
  const last = mandate.slice(mandate.lastIndexOf('~') + 1);
  return mandate.includes('~') && (last === '' || last.includes('.')) ? mandate : `${mandate}~`;
}

type MandateInputs = { platformKeys: readonly ProfileKey[] | null; shopKeys: readonly PublicJwk[]; now: Date };

/**
 * The checkout a platform's checkout mandate (AP2's closed checkout mandate, an SD-JWT) binds, verified in the
 * trusted-platform-provider flow: the issuer's signature by a key the platform's profile lists, its expiry, its
 * disclosures (sha-256 digests), a key-binding JWT when one is sent (by the `cnf` key, over this presentation),
 * `checkout_hash` over `checkout_jwt`, and `checkout_jwt` being the shop's own merchant authorization of that
 * checkout. Throws the extension's error for the first check that fails.
 */
export async function verifyCheckoutMandate(mandate: string, inputs: MandateInputs): Promise<Json> {
  const { platformKeys, shopKeys, now } = inputs;
  const sdJwt = presentation(mandate);
  const issuerJwt = sdJwt.slice(0, sdJwt.indexOf('~'));
  const { kid, alg } = headerOf(issuerJwt);
  const jwk = platformKeys?.find((key) => key.kid === kid);
  if (!jwk) throw refused('AGENT_MISSING_KEY', `The platform's profile lists no signing key ${kid ?? '(no kid)'} for the checkout mandate.`);

  let claims: Json;
  try {
    const { payload } = await jwtVerify(issuerJwt, await importJWK(jwk as JWK, alg), { algorithms: ALGORITHMS, currentDate: now });
    const decoded = decodeSdJwtSync(sdJwt, sha256);
    if ((payload._sd_alg ?? 'sha-256') !== 'sha-256') throw new Error('unsupported _sd_alg');
    claims = getClaimsSync<Json>(payload, decoded.disclosures, sha256);
    const kbJwt = sdJwt.slice(sdJwt.lastIndexOf('~') + 1);
    if (kbJwt !== '') await verifyKeyBinding(kbJwt, sdJwt.slice(0, sdJwt.lastIndexOf('~') + 1), payload.cnf, now);
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw refused('MANDATE_EXPIRED', 'The checkout mandate has expired.');
    throw refused('MANDATE_INVALID_SIGNATURE', 'The checkout mandate does not verify with the platform\'s key.');
  }

  const checkoutJwt = claims.checkout_jwt;
  if (claims.vct !== CHECKOUT_MANDATE_TYPE || typeof checkoutJwt !== 'string') {
    throw refused('MANDATE_SCOPE_MISMATCH', `The mandate is not a checkout mandate (vct ${CHECKOUT_MANDATE_TYPE} with checkout_jwt).`);
  }
  if (claims.checkout_hash !== base64url(sha256(checkoutJwt))) {
    throw refused('MANDATE_SCOPE_MISMATCH', 'The mandate\'s checkout_hash is not the hash of its checkout_jwt.');
  }
  const checkout = await openCheckoutJwt(checkoutJwt, shopKeys);
  if (!checkout) throw refused('MERCHANT_AUTHORIZATION_INVALID', 'The checkout in the mandate does not carry the shop\'s own valid signature.');
  return checkout;
}

/** A JWS header's key id and algorithm, the algorithm one the extension allows. */
function headerOf(jws: string): { kid: string | undefined; alg: string } {
  let header;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw refused('MANDATE_INVALID_SIGNATURE', 'The checkout mandate is not a JWS.');
  }
  if (header.alg === undefined || !ALGORITHMS.includes(header.alg)) {
    throw refused('MANDATE_INVALID_SIGNATURE', `The checkout mandate is signed with ${header.alg ?? 'no algorithm'}; ES256, ES384 or ES512 are accepted.`);
  }
  return { kid: header.kid, alg: header.alg };
}

/** A key-binding JWT (RFC 9901): signed by the `cnf` key, typed kb+jwt, recent, and over this very presentation. */
async function verifyKeyBinding(kbJwt: string, presented: string, cnf: unknown, now: Date): Promise<void> {
  const holderKey = (cnf as { jwk?: JWK } | undefined)?.jwk;
  if (!holderKey) throw new Error('a key-binding JWT without a cnf key');
  const { payload } = await jwtVerify(kbJwt, await importJWK(holderKey, headerOf(kbJwt).alg), {
    algorithms: ALGORITHMS, typ: 'kb+jwt', currentDate: now, maxTokenAge: KB_MAX_AGE_S, requiredClaims: ['iat'],
  });
  if (payload.sd_hash !== base64url(sha256(presented))) throw new Error('the key-binding JWT is over another presentation');
}

/** What a mandate binds: the session, its currency, its lines and its totals, as the shop shows them. */
const termsOf = (checkout: Json) => canonicalize({ id: checkout.id, currency: checkout.currency, line_items: checkout.line_items, totals: checkout.totals });

/** Refuses a mandate whose checkout is not the session as it stands now (another session, other lines or totals). */
export function requireSameTerms(mandated: Json, current: Json): void {
  if (termsOf(mandated) !== termsOf(current)) {
    throw refused('MANDATE_SCOPE_MISMATCH', 'The checkout mandate is for other terms than this checkout has now; get the checkout again and have the buyer authorize it.');
  }
}
