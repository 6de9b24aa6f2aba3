import type { IncomingHttpHeaders } from 'node:http';
import { isSignatureError, verifySignature } from 'http-message-sig';
import type { FieldOccurrence, Verifier } from 'http-message-sig';
import { parseDictionary } from 'structured-headers';
import { UcpError } from '../core/errors.ts';
import { digestMatches, jwkVerifier, requestComponents } from './message-signatures.ts';
import type { ProfileReader } from './platform-profile.ts';

/** required: every request is signed (live mode); optional: a signature is checked when one is sent. */
export type SignaturePolicy = 'required' | 'optional';

/** The algorithms RFC 9421 registers: a claimed one outside ECDSA is refused by the key lookup as unsupported. */
const REGISTERED_ALGORITHMS = ['ecdsa-p256-sha256', 'ecdsa-p384-sha384', 'ed25519', 'rsa-pss-sha512', 'rsa-v1_5-sha256', 'hmac-sha256'];
/** A signature's `created` may be this far in the future (clock skew) and this old, in seconds. */
const CLOCK_SKEW_S = 60;
const MAX_AGE_S = 5 * 60;

/** What the check reads of a request: a Fastify request is one. */
export type IncomingRequest = { method: string; url: string; headers: IncomingHttpHeaders; body: unknown };

const refused = (status: number, code: string, message: string) => new UcpError(status, code, message);

/** The signer's profile URL from UCP-Agent (an RFC 8941 dictionary's `profile` member). */
function signerProfile(header: string | string[] | undefined, httpsOnly: boolean): string {
  const text = Array.isArray(header) ? header.join(', ') : header;
  let profile: string | undefined;
  try {
    const member = text === undefined ? undefined : parseDictionary(text).get('profile');
    profile = member && typeof member[0] === 'string' ? member[0] : undefined;
  } catch {
    profile = undefined;
  }
  let url: URL | undefined;
  try {
    url = profile === undefined ? undefined : new URL(profile);
  } catch {
    url = undefined;
  }
  if (!url || !(url.protocol === 'https:' || (!httpsOnly && url.protocol === 'http:'))) {
    throw refused(400, 'invalid_profile_url', `A signed request names its signer's profile in UCP-Agent: profile="https://platform.example/.well-known/ucp"${httpsOnly ? ' (https only)' : ''}.`);
  }
  return url.href;
}

function fieldsOf(headers: IncomingHttpHeaders): FieldOccurrence[] {
  return Object.entries(headers).flatMap(([name, value]) => {
    if (value === undefined) return [];
    return (Array.isArray(value) ? value : [value]).map((one) => ({ name, value: one }));
  });
}

/**
 * Checks a platform's RFC 9421 signature against the keys in its profile (docs/ucp.md#request-signatures):
 * the body against Content-Digest, the components UCP requires covered, `expires` not passed and `created`
 * required and within five minutes, the key found by keyid (a key missing from the cached profile refetches it
 * once). A refusal is a UcpError with UCP's code and status. Replays inside those minutes are the idempotency keys'
 * to answer: the Idempotency-Key is among the signed components, and a signed write without one runs under a key
 * made from its signature (replay-key.ts), so a replayed write gets the first call's answer.
 * Resolves to the profile URL whose key made the signature, or undefined for an unsigned request the policy allows.
 */
export function requestVerifier(options: { policy: SignaturePolicy; httpsOnly: boolean; baseUrl: () => string; profiles: ProfileReader; clock: () => Date }) {
  return async function verifyRequest(request: IncomingRequest): Promise<string | undefined> {
    const { headers } = request;
    if (headers.signature === undefined && headers['signature-input'] === undefined) {
      if (options.policy === 'optional') return undefined;
      throw refused(401, 'signature_missing', 'Sign every request with an RFC 9421 HTTP message signature (Signature-Input and Signature) made with a key in your profile\'s signing_keys.');
    }
    if (headers.signature === undefined || headers['signature-input'] === undefined) {
      throw refused(401, 'signature_missing', 'A request signature needs both Signature-Input and Signature.');
    }
    const profileUrl = signerProfile(headers['ucp-agent'], options.httpsOnly);
    const body = typeof request.body === 'string' ? request.body : '';
    if (body !== '') {
      const digest = headers['content-digest'];
      if (typeof digest !== 'string') throw refused(400, 'digest_mismatch', 'A signed request with a body carries its Content-Digest (RFC 9530, sha-256).');
      if (!digestMatches(digest, body)) throw refused(400, 'digest_mismatch', 'Content-Digest does not match the body: send sha-256=:<base64 of the SHA-256 of the exact body bytes>:.');
    }
    // The authority a platform signs is the shop's public one (BASE_URL), whatever Host a proxy passed on.
    const targetUri = `${new URL(options.baseUrl()).origin}${request.url}`;
    const now = Math.floor(options.clock().getTime() / 1000);
    let kid = '';
    try {
      await verifySignature({ kind: 'request', method: request.method, targetUri, fields: fieldsOf(headers) }, {
        policy: {
          algorithms: REGISTERED_ALGORITHMS,
          requiredComponents: requestComponents({ url: targetUri, headers: headers as Record<string, string>, hasBody: body !== '' }),
          requiredParameters: ['keyid', 'created'],
          clockSkew: CLOCK_SKEW_S,
          now,
          validate: ({ parameters }) => {
            if (parameters.created !== undefined && now - parameters.created > MAX_AGE_S + CLOCK_SKEW_S) {
              throw refused(401, 'signature_invalid', `The request signature was created ${now - parameters.created} seconds ago, more than ${MAX_AGE_S} allow: sign each request as it is sent.`);
            }
          },
        },
        resolveVerifier: async (candidate) => {
          kid = String(candidate.parameters.keyid);
          return keyFor(options.profiles, profileUrl, kid, candidate.algorithm);
        },
      });
    } catch (error) {
      if (isSignatureError(error) && error.cause instanceof UcpError) throw error.cause;
      if (isSignatureError(error)) {
        throw refused(401, 'signature_invalid', `The request signature${kid ? ` made with key ${kid}` : ''} does not verify: ${error.message}.`);
      }
      throw error;
    }
    return profileUrl;
  };
}

export type VerifyRequest = ReturnType<typeof requestVerifier>;

/** The verifier for `kid` from the signer's profile, read again once when the cached copy does not list it. */
async function keyFor(profiles: ProfileReader, profileUrl: string, kid: string, claimed: string | undefined): Promise<Verifier> {
  if (claimed !== undefined && !claimed.startsWith('ecdsa-')) {
    throw refused(400, 'algorithm_unsupported', `Algorithm ${claimed} is not supported: sign with ES256 (ecdsa-p256-sha256) or ES384.`);
  }
  let profile = await profiles(profileUrl);
  if (profile.malformed !== null) throw refused(422, 'profile_malformed', `The profile ${profileUrl} ${profile.malformed}, so the request signature cannot be checked.`);
  if (profile.signingKeys === null) throw refused(424, 'profile_unreachable', `The profile ${profileUrl} could not be read, so the request signature cannot be checked.`);
  let jwk = profile.signingKeys.find((key) => key.kid === kid);
  if (!jwk) {
    profile = await profiles(profileUrl, { refresh: true });
    jwk = profile.signingKeys?.find((key) => key.kid === kid);
  }
  if (!jwk) throw refused(401, 'key_not_found', `Key ${kid} is not in the signing_keys of ${profileUrl}.`);
  const verifier = jwkVerifier(jwk);
  if (!verifier) throw refused(400, 'algorithm_unsupported', `Key ${kid} is not an EC key on P-256 or P-384; UCP signs with ES256 or ES384.`);
  return verifier;
}
