import canonicalize from 'canonicalize';
import { compactVerify, CompactSign, decodeProtectedHeader, importJWK } from 'jose';
import type { SigningKey } from './message-signatures.ts';
import type { PublicJwk } from './signing-keys.ts';

type Json = Record<string, unknown>;

/** The keys the shop signs with are P-256, so its authorizations are ES256 (what the AP2 extension requires every party to support). */
const ALGORITHM = 'ES256';

/** The bytes the business signs: the checkout without its `ap2` member, canonicalized by JCS (RFC 8785). */
function signedBytes(checkout: Json): Uint8Array {
  const { ap2: _ap2, ...terms } = checkout;
  const canonical = canonicalize(terms);
  if (canonical === undefined) throw new Error('a checkout has no canonical form');
  return new TextEncoder().encode(canonical);
}

/**
 * `ap2.merchant_authorization` of the AP2 mandate extension: a JWS with detached content (RFC 7515 appendix F),
 * `header..signature`, over the checkout as JCS canonicalizes it, made with the shop's current signing key.
 * Put the base64url of those bytes between the dots and it is a compact JWS of the checkout: the `checkout_jwt`
 * a platform's checkout mandate carries back.
 */
export async function merchantAuthorization(checkout: Json, signer: SigningKey): Promise<string> {
  const jws = await new CompactSign(signedBytes(checkout)).setProtectedHeader({ alg: ALGORITHM, kid: signer.kid }).sign(signer.key);
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}

/** The checkout answer with its merchant authorization in `ap2`. */
export async function withMerchantAuthorization(checkout: Json, signer: SigningKey): Promise<Json> {
  return { ...checkout, ap2: { merchant_authorization: await merchantAuthorization(checkout, signer) } };
}

/**
 * The checkout a `checkout_jwt` carries, once its signature is found to be one of the shop's own keys (published,
 * not retired) over exactly these bytes; undefined otherwise.
 */
export async function openCheckoutJwt(checkoutJwt: string, shopKeys: readonly PublicJwk[]): Promise<Json | undefined> {
  try {
    const { kid } = decodeProtectedHeader(checkoutJwt);
    const jwk = shopKeys.find((key) => key.kid === kid);
    if (!jwk) return undefined;
    const { payload } = await compactVerify(checkoutJwt, await importJWK(jwk, ALGORITHM), { algorithms: [ALGORITHM] });
    const checkout: unknown = JSON.parse(new TextDecoder().decode(payload));
    return typeof checkout === 'object' && checkout !== null && !Array.isArray(checkout) ? (checkout as Json) : undefined;
  } catch {
    return undefined;
  }
}
