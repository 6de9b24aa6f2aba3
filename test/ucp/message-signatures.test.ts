import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Log } from '../../src/log.ts';
import { contentDigest, digestMatches, signRequest, signResponse } from '../../src/ucp/signatures/message-signatures.ts';
import { platformProfiles } from '../../src/ucp/signatures/platform-profile.ts';
import {
  currentSigningKey, publishedSigningKeys, PUBLISH_LEAD_MS, RETIRE_GRACE_MS, retireSigningKey, rotateSigningKey, signingKeySource,
} from '../../src/ucp/signatures/signing-keys.ts';
import { requestVerifier } from '../../src/ucp/signatures/verify-request.ts';
import { openTestDatabase } from '../helpers/app.ts';
import { verifyMessageSignature } from './platform.ts';
import { platformKey, signingPlatform } from './signing-platform.ts';

const log: Log = { info: () => {}, warn: () => {}, error: () => {} };

describe('Content-Digest (RFC 9530)', () => {
  it('is the sha-256 of the exact bytes, as a structured dictionary', () => {
    // RFC 9530 appendix B.1: the digest of {"hello": "world"} followed by a newline.
    expect(contentDigest('{"hello": "world"}\n')).toBe('sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg=:');
    expect(digestMatches('sha-512=:abc=:, sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg=:', '{"hello": "world"}\n')).toBe(true);
    expect(digestMatches('sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg=:', '{"hello": "world"}')).toBe(false);
    expect(digestMatches('not a dictionary ((', '')).toBe(false);
  });
});

describe('signing and verifying a request', () => {
  const key = platformKey();
  let platform: Awaited<ReturnType<typeof signingPlatform>>;
  beforeAll(async () => {
    platform = await signingPlatform([key.jwk]);
  });
  afterAll(async () => platform?.stop());

  const request = async (profileUrl: string) => {
    const body = '{"line_items":[]}';
    const headers: Record<string, string> = { 'ucp-agent': `profile="${profileUrl}"`, 'idempotency-key': 'k-1', 'content-type': 'application/json' };
    const signed = await signRequest({ method: 'POST', url: 'https://shop.example/checkout-sessions?x=1', headers, body }, key, new Date());
    return { method: 'POST', url: '/checkout-sessions?x=1', headers: { ...headers, ...signed }, body };
  };

  it('makes a signature base a verifier written from the RFC accepts, covering the query', async () => {
    const signed = await request(platform.profileUrl);
    expect(signed.headers['signature-input']).toMatch(/^sig1=\("@method" "@authority" "@path" "@query" "ucp-agent" "idempotency-key" "content-digest" "content-type"\);created=\d+;keyid="platform-/);
    const byHand = verifyMessageSignature({ method: 'POST', authority: 'shop.example', path: '/checkout-sessions', query: '?x=1', headers: signed.headers, body: signed.body }, [key.jwk]);
    expect(byHand).toMatchObject({ keyid: key.kid });
  });

  it('verifies against the profile in test mode, and refuses an http profile where only https is allowed (live)', async () => {
    const profiles = platformProfiles('test', log);
    const verify = (httpsOnly: boolean) => requestVerifier({ policy: 'required', httpsOnly, baseUrl: () => 'https://shop.example', profiles, clock: () => new Date() });
    // It names the profile whose key made the signature (a trusted platform is proven by it).
    await expect(verify(false)(await request(platform.profileUrl))).resolves.toBe(platform.profileUrl);
    await expect(verify(true)(await request(platform.profileUrl))).rejects.toMatchObject({ status: 400, code: 'invalid_profile_url' });
    // Another authority than the shop's own BASE_URL: the signature was made for somebody else.
    const elsewhere = requestVerifier({ policy: 'required', httpsOnly: false, baseUrl: () => 'https://other.example', profiles, clock: () => new Date() });
    await expect(elsewhere(await request(platform.profileUrl))).rejects.toMatchObject({ status: 401, code: 'signature_invalid' });
  });

  it('signs an answer without a body over its status alone', async () => {
    const signed = await signResponse({ status: 204, contentType: undefined, body: '' }, key, new Date());
    expect(signed['content-digest']).toBeUndefined();
    expect(signed['signature-input']).toMatch(/^sig1=\("@status"\);created=\d+;keyid=/);
  });
});

describe("the shop's signing keys", () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterAll(async () => drop?.());

  it('publishes a rotated key at once and signs with it once the published profile has had time to reach every cache', async () => {
    const [first] = await publishedSigningKeys(database.db);
    const rotated = await rotateSigningKey(database.db);
    expect((await publishedSigningKeys(database.db)).map((key) => key.kid)).toEqual([rotated, first?.kid]);
    const now = Date.now();
    expect((await currentSigningKey(database.db, new Date(now + PUBLISH_LEAD_MS + 60_000))).kid).toBe(rotated);
    // Right after the rotation the first key signs on: the new one is younger than the lead, the first is not by then.
    const source = signingKeySource(database.db, () => new Date(now));
    const held = await source();
    expect(held.kid).toBe(first?.kid);
    expect(await source()).toBe(held);

    expect(await retireSigningKey(database.db, rotated, new Date(now))).toMatchObject({ reason: expect.stringMatching(/is the newest key: rotate first/) });
    // The first key may be retired seven days after the rotated one took over, not before.
    const tookOver = now + PUBLISH_LEAD_MS;
    expect(await retireSigningKey(database.db, first?.kid ?? '', new Date(tookOver + RETIRE_GRACE_MS - 60_000))).toMatchObject({ retired: false });
    expect(await retireSigningKey(database.db, first?.kid ?? '', new Date(tookOver + RETIRE_GRACE_MS + 60_000))).toEqual({ retired: true });
    expect((await publishedSigningKeys(database.db)).map((key) => key.kid)).toEqual([rotated]);
  });
});
