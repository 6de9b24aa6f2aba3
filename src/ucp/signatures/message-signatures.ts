import { createHash, createPublicKey, sign, verify } from 'node:crypto';
import type { JsonWebKey, KeyObject } from 'node:crypto';
import { createSignature } from 'http-message-sig';
import type { FieldOccurrence, Signer, Verifier } from 'http-message-sig';
import { isInnerList, parseDictionary, serializeDictionary } from 'structured-headers';

/**
 * UCP's HTTP message signatures (RFC 9421) with the body bound by Content-Digest (RFC 9530). The signature base
 * is built and parsed by http-message-sig; this file only says which components UCP signs and supplies ECDSA
 * from node:crypto. The algorithm follows the key's curve and is not named in Signature-Input, as UCP asks.
 */

/** A key this shop signs with: its id in the published profile and the private key. */
export type SigningKey = { kid: string; key: KeyObject };

const CURVES: Record<string, { algorithm: string; hash: string }> = {
  'P-256': { algorithm: 'ecdsa-p256-sha256', hash: 'sha256' },
  'P-384': { algorithm: 'ecdsa-p384-sha384', hash: 'sha384' },
};

/** node:crypto's names of the same curves. */
const NAMED_CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384' };

/** ECDSA with r‖s as fixed-width big-endian integers (IEEE P1363), the encoding RFC 9421 requires, not DER. */
function ecdsaSigner(key: KeyObject): Signer {
  const curve = CURVES[NAMED_CURVES[key.asymmetricKeyDetails?.namedCurve ?? ''] ?? ''];
  if (!curve) throw new Error('a signing key must be an EC key on P-256 or P-384');
  return { algorithm: curve.algorithm, sign: (data) => sign(curve.hash, data, { key, dsaEncoding: 'ieee-p1363' }) };
}

/**
 * The verifier for a profile's JWK, or undefined when its curve is not one UCP signs with (ES256, ES384).
 * A key the profile lists but node cannot read is treated the same way.
 */
export function jwkVerifier(jwk: Record<string, unknown>): Verifier | undefined {
  const curve = jwk.kty === 'EC' && typeof jwk.crv === 'string' ? CURVES[jwk.crv] : undefined;
  if (!curve) return undefined;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  } catch {
    return undefined;
  }
  return {
    algorithm: curve.algorithm,
    verify: (data, signature) => {
      try {
        return verify(curve.hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
      } catch {
        return false;
      }
    },
  };
}

/** RFC 9530 Content-Digest of the exact body bytes, with sha-256, the one algorithm UCP names. */
export function contentDigest(body: string | Uint8Array): string {
  return serializeDictionary(new Map([['sha-256', [createHash('sha256').update(body).digest(), new Map()]]]));
}

/** Whether a Content-Digest field carries the sha-256 of these bytes; other algorithms in it are not consulted. */
export function digestMatches(field: string, body: string | Uint8Array): boolean {
  let members: ReturnType<typeof parseDictionary>;
  try {
    members = parseDictionary(field);
  } catch {
    return false;
  }
  const member = members.get('sha-256');
  if (!member || isInnerList(member) || !(member[0] instanceof ArrayBuffer)) return false;
  return Buffer.from(member[0]).equals(createHash('sha256').update(body).digest());
}

type Fields = Record<string, string>;

function occurrences(fields: Fields): FieldOccurrence[] {
  return Object.entries(fields).map(([name, value]) => ({ name, value }));
}

/** The headers a signature adds: Content-Digest when there is a body, Signature-Input and Signature. */
export type SignatureHeaders = { 'content-digest'?: string; 'signature-input': string; signature: string };

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * The components UCP signs on a request: method, authority and path always; the query, UCP-Agent and
 * Idempotency-Key when the request has them; Content-Digest and Content-Type when it has a body.
 */
export function requestComponents(request: { url: string; headers: Fields; hasBody: boolean }): string[] {
  return [
    '@method', '@authority', '@path',
    ...(new URL(request.url).search !== '' ? ['@query'] : []),
    ...('ucp-agent' in request.headers ? ['ucp-agent'] : []),
    ...('idempotency-key' in request.headers ? ['idempotency-key'] : []),
    ...(request.hasBody ? ['content-digest', 'content-type'] : []),
  ];
}

/**
 * Signs a request this shop sends (an order webhook), or that a platform sends in the tests: `headers` are
 * lower-case names; the answer is the headers to add to them.
 */
export async function signRequest(
  request: { method: string; url: string; headers: Fields; body?: string },
  signer: SigningKey,
  now: Date,
): Promise<SignatureHeaders> {
  const hasBody = request.body !== undefined && request.body !== '';
  const digest: Fields = hasBody ? { 'content-digest': contentDigest(request.body ?? '') } : {};
  const headers = { ...request.headers, ...digest };
  const fields = await createSignature(
    { kind: 'request', method: request.method, targetUri: request.url, fields: occurrences(headers) },
    {
      components: requestComponents({ url: request.url, headers, hasBody }),
      parameters: { created: seconds(now), keyid: signer.kid },
      signer: ecdsaSigner(signer.key),
    },
  );
  return { ...digest, 'signature-input': fields.signatureInput, signature: fields.signature };
}

/** Signs an answer: its status always, and its Content-Digest and Content-Type when it has a body. */
export async function signResponse(
  response: { status: number; contentType: string | undefined; body: string | Uint8Array },
  signer: SigningKey,
  now: Date,
): Promise<SignatureHeaders> {
  const type = response.body.length > 0 ? response.contentType : undefined;
  const signed: Fields = type === undefined ? {} : { 'content-digest': contentDigest(response.body), 'content-type': type };
  const fields = await createSignature(
    { kind: 'response', status: response.status, fields: occurrences(signed) },
    {
      components: type === undefined ? ['@status'] : ['@status', 'content-digest', 'content-type'],
      parameters: { created: seconds(now), keyid: signer.kid },
      signer: ecdsaSigner(signer.key),
    },
  );
  return { ...(signed['content-digest'] ? { 'content-digest': signed['content-digest'] } : {}), 'signature-input': fields.signatureInput, signature: fields.signature };
}
