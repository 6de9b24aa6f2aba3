import { createHash, randomUUID, sign } from 'node:crypto';
import { createSignature, verifySignature } from 'http-message-sig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestMatches, jwkVerifier, signRequest } from '../../src/ucp/signatures/message-signatures.ts';
import { BASE_URL } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { flowerShop } from './helpers.ts';
import { platformKey, signingPlatform } from './signing-platform.ts';
import type { PlatformKey } from './signing-platform.ts';

const LINE = { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }], currency: 'USD' };

type Platform = Awaited<ReturnType<typeof signingPlatform>>;
type Sent = { status: number; headers: Record<string, any>; body: any; text: string };

/** A request as a platform signs it: UCP-Agent, Idempotency-Key on writes, then `alter` may spoil it. */
async function send(
  t: TestApp,
  platform: { profileUrl: string },
  request: { method: 'GET' | 'POST' | 'PUT'; path: string; body?: unknown; key?: PlatformKey; signedAt?: Date; alter?: (headers: Record<string, string>) => { path?: string; body?: string } | void },
): Promise<Sent> {
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const headers: Record<string, string> = {
    'ucp-agent': `profile="${platform.profileUrl}"`,
    ...(request.method === 'GET' ? {} : { 'idempotency-key': randomUUID() }),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  if (request.key) Object.assign(headers, await signRequest({ method: request.method, url: `${BASE_URL}${request.path}`, headers, body }, request.key, request.signedAt ?? new Date()));
  const altered = request.alter?.(headers) ?? {};
  const response = await t.app.inject({ method: request.method, url: altered.path ?? request.path, headers, ...(body === undefined ? {} : { payload: altered.body ?? body }) });
  const json = String(response.headers['content-type']).startsWith('application/json');
  return { status: response.statusCode, headers: response.headers, body: json ? JSON.parse(response.body) : undefined, text: response.body };
}

/** The platform names no version, so refusals come in the declared 2026-04-08's words: `{code, content}`. */
const codeOf = (sent: Sent) => sent.body.code;

describe('UCP request signatures, checked when sent (test mode)', () => {
  let t: TestApp;
  let platform: Platform;
  const first = platformKey();

  beforeAll(async () => {
    t = await flowerShop();
    platform = await signingPlatform([first.jwk]);
  });
  afterAll(async () => {
    await platform?.stop();
    await t?.close();
  });

  it('accepts a signed request and an unsigned one', async () => {
    expect((await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE, key: first })).status).toBe(201);
    expect((await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE })).status).toBe(201);
  });

  it('signs its answers with the key it publishes: status, Content-Digest and Content-Type', async () => {
    const created = await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE, key: first });
    expect(created.headers['signature-input']).toMatch(/^sig1=\("@status" "content-digest" "content-type"\);created=\d+;keyid="butik-/);
    expect(digestMatches(created.headers['content-digest'], created.text)).toBe(true);
    const published = JSON.parse((await t.app.inject({ method: 'GET', url: '/.well-known/ucp' })).body).signing_keys;
    const fields = ['content-digest', 'content-type', 'signature', 'signature-input'].map((name) => ({ name, value: String(created.headers[name]) }));
    const verified = await verifySignature({ kind: 'response', status: 201, fields }, {
      policy: { algorithms: ['ecdsa-p256-sha256'], requiredComponents: ['@status', 'content-digest', 'content-type'], requiredParameters: ['keyid', 'created'] },
      resolveVerifier: ({ parameters }) => {
        const verifier = jwkVerifier(published.find((key: { kid: string }) => key.kid === parameters.keyid));
        if (!verifier) throw new Error('unknown key');
        return verifier;
      },
    });
    expect(verified.parameters.keyid).toBe(published[0].kid);

    // The same answer with another status no longer verifies.
    await expect(verifySignature({ kind: 'response', status: 200, fields }, {
      policy: { algorithms: ['ecdsa-p256-sha256'], requiredComponents: ['@status'], requiredParameters: [] },
      resolveVerifier: () => jwkVerifier(published[0])!,
    })).rejects.toThrow(/verification failed/i);
  });

  it('signs a catalog answer when the platform signed its request and only then, as UCP leaves it optional there', async () => {
    const query = { query: 'roses' };
    const unsigned = await send(t, platform, { method: 'POST', path: '/catalog/search', body: query });
    expect(unsigned.status).toBe(200);
    expect(unsigned.body.products.map((p: { variants: Array<{ id: string }> }) => p.variants[0]?.id)).toContain('bouquet_roses');
    expect(unsigned.headers).not.toHaveProperty('signature');
    expect(unsigned.headers).not.toHaveProperty('signature-input');
    expect(unsigned.headers).not.toHaveProperty('content-digest');

    const signed = await send(t, platform, { method: 'POST', path: '/catalog/search', body: query, key: first });
    expect(signed.status).toBe(200);
    expect(signed.text).toBe(unsigned.text);
    expect(signed.headers['signature-input']).toMatch(/^sig1=\("@status" "content-digest" "content-type"\);created=\d+;keyid="butik-/);
    expect(digestMatches(signed.headers['content-digest'], signed.text)).toBe(true);

    // A checkout's answer is signed whether or not its request was.
    const checkout = await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE });
    expect(checkout.headers['signature-input']).toMatch(/^sig1=\("@status" "content-digest" "content-type"\)/);
  });

  it('refuses a signature that does not verify: another key under the listed kid', async () => {
    const impostor = { ...platformKey(), kid: first.kid };
    const refused = await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE, key: impostor });
    expect(refused.status).toBe(401);
    expect(codeOf(refused)).toBe('signature_invalid');
    expect(refused.body.content).toContain(first.kid);
  });

  it('refuses a body that does not match its Content-Digest, and a digest the signature does not cover', async () => {
    const changed = await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE, key: first, alter: () => ({ body: JSON.stringify({ ...LINE, currency: 'EUR' }) }) });
    expect(changed.status).toBe(400);
    expect(codeOf(changed)).toBe('digest_mismatch');

    const forged = await send(t, platform, {
      method: 'POST', path: '/checkout-sessions', body: LINE, key: first,
      alter: (headers) => {
        const other = JSON.stringify({ ...LINE, currency: 'EUR' });
        headers['content-digest'] = `sha-256=:${createHash('sha256').update(other).digest('base64')}:`;
        return { body: other };
      },
    });
    expect(forged.status).toBe(401);
    expect(codeOf(forged)).toBe('signature_invalid');
  });

  it('refuses a signature older than five minutes, or one whose components leave out what UCP requires', async () => {
    const stale = await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE, key: first, signedAt: new Date(Date.now() - 10 * 60_000) });
    expect(stale.status).toBe(401);
    expect(codeOf(stale)).toBe('signature_invalid');
    expect(stale.body.content).toMatch(/created \d+ seconds ago/);

    const future = await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE, key: first, signedAt: new Date(Date.now() + 10 * 60_000) });
    expect(future.status).toBe(401);

    // Method, authority and path only: UCP-Agent, the Idempotency-Key and the body are left unsigned.
    const body = JSON.stringify(LINE);
    const headers: Record<string, string> = { 'ucp-agent': `profile="${platform.profileUrl}"`, 'idempotency-key': randomUUID(), 'content-type': 'application/json' };
    headers['content-digest'] = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
    const fields = await createSignature({ kind: 'request', method: 'POST', targetUri: `${BASE_URL}/checkout-sessions`, fields: [] }, {
      components: ['@method', '@authority', '@path'],
      parameters: { created: Math.floor(Date.now() / 1000), keyid: first.kid },
      signer: { algorithm: 'ecdsa-p256-sha256', sign: (data) => sign('sha256', data, { key: first.key, dsaEncoding: 'ieee-p1363' }) },
    });
    const partial = await t.app.inject({ method: 'POST', url: '/checkout-sessions', headers: { ...headers, signature: fields.signature, 'signature-input': fields.signatureInput }, payload: body });
    expect(partial.statusCode).toBe(401);
    expect(JSON.parse(partial.body).content).toMatch(/Required component "ucp-agent" is absent/);
  });

  it('answers a replayed write from its idempotency key, and refuses the signature on another path', async () => {
    const body = JSON.stringify(LINE);
    const headers: Record<string, string> = { 'ucp-agent': `profile="${platform.profileUrl}"`, 'idempotency-key': randomUUID(), 'content-type': 'application/json' };
    Object.assign(headers, await signRequest({ method: 'POST', url: `${BASE_URL}/checkout-sessions`, headers, body }, first, new Date()));
    const original = await t.app.inject({ method: 'POST', url: '/checkout-sessions', headers, payload: body });
    const replayed = await t.app.inject({ method: 'POST', url: '/checkout-sessions', headers, payload: body });
    expect(original.statusCode).toBe(201);
    expect(replayed.statusCode).toBe(201);
    expect(JSON.parse(replayed.body).id).toBe(JSON.parse(original.body).id);

    const elsewhere = await t.app.inject({ method: 'PUT', url: `/checkout-sessions/${JSON.parse(original.body).id}`, headers, payload: body });
    expect(elsewhere.statusCode).toBe(401);
    expect(JSON.parse(elsewhere.body).code).toBe('signature_invalid');
  });

  it('answers a replayed signed create that sent no Idempotency-Key from the first call, and creates one session', async () => {
    const body = JSON.stringify(LINE);
    const headers: Record<string, string> = { 'ucp-agent': `profile="${platform.profileUrl}"`, 'content-type': 'application/json' };
    Object.assign(headers, await signRequest({ method: 'POST', url: `${BASE_URL}/checkout-sessions`, headers, body }, first, new Date()));
    const original = await t.app.inject({ method: 'POST', url: '/checkout-sessions', headers, payload: body });
    const replayed = await t.app.inject({ method: 'POST', url: '/checkout-sessions', headers, payload: body });
    expect(original.statusCode).toBe(201);
    expect(replayed.statusCode).toBe(201);
    expect(JSON.parse(replayed.body).id).toBe(JSON.parse(original.body).id);
    // A fresh signature of the same create is a new request: a second session.
    const again: Record<string, string> = { 'ucp-agent': `profile="${platform.profileUrl}"`, 'content-type': 'application/json' };
    Object.assign(again, await signRequest({ method: 'POST', url: `${BASE_URL}/checkout-sessions`, headers: again, body }, first, new Date(Date.now() + 1000)));
    const second = await t.app.inject({ method: 'POST', url: '/checkout-sessions', headers: again, payload: body });
    expect(JSON.parse(second.body).id).not.toBe(JSON.parse(original.body).id);
  });

  it('refuses a signature without created, which would otherwise be valid forever', async () => {
    const body = JSON.stringify(LINE);
    const headers: Record<string, string> = { 'ucp-agent': `profile="${platform.profileUrl}"`, 'idempotency-key': randomUUID(), 'content-type': 'application/json' };
    headers['content-digest'] = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
    const fields = await createSignature({ kind: 'request', method: 'POST', targetUri: `${BASE_URL}/checkout-sessions`, fields: Object.entries(headers).map(([name, value]) => ({ name, value })) }, {
      components: ['@method', '@authority', '@path', 'ucp-agent', 'idempotency-key', 'content-type', 'content-digest'],
      parameters: { keyid: first.kid },
      signer: { algorithm: 'ecdsa-p256-sha256', sign: (data) => sign('sha256', data, { key: first.key, dsaEncoding: 'ieee-p1363' }) },
    });
    const timeless = await t.app.inject({ method: 'POST', url: '/checkout-sessions', headers: { ...headers, signature: fields.signature, 'signature-input': fields.signatureInput }, payload: body });
    expect(timeless.statusCode).toBe(401);
    expect(JSON.parse(timeless.body)).toMatchObject({ code: 'signature_invalid' });
    expect(JSON.parse(timeless.body).content).toMatch(/created/);
  });

  it('reads the profile again for a key it does not list, and accepts the rotated key', async () => {
    const before = platform.fetches();
    const rotated = platformKey();
    platform.publish([rotated.jwk, first.jwk]);
    const accepted = await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE, key: rotated });
    expect(accepted.status).toBe(201);
    expect(platform.fetches()).toBe(before + 1);

    // A key the fresh profile does not list either is unknown, and the profile is not read again within the minute.
    const unknown = await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE, key: platformKey() });
    expect(unknown.status).toBe(401);
    expect(codeOf(unknown)).toBe('key_not_found');
    expect(platform.fetches()).toBe(before + 1);
    expect((await send(t, platform, { method: 'GET', path: `/checkout-sessions/${accepted.body.id}`, key: first })).status).toBe(200);
  });

  it('refuses a key on a curve UCP does not sign with, and a profile that cannot be read', async () => {
    const ed = await signingPlatform([{ kty: 'OKP', crv: 'Ed25519', kid: 'ed', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }]);
    try {
      const refused = await send(t, ed, { method: 'POST', path: '/checkout-sessions', body: LINE, key: { ...first, kid: 'ed' } });
      expect(refused.status).toBe(400);
      expect(codeOf(refused)).toBe('algorithm_unsupported');
    } finally {
      await ed.stop();
    }
    const gone = await send(t, { profileUrl: 'http://127.0.0.1:9/.well-known/ucp' }, { method: 'POST', path: '/checkout-sessions', body: LINE, key: first });
    expect(gone.status).toBe(424);
    expect(codeOf(gone)).toBe('profile_unreachable');
  });

  it('checks a signature on the MCP binding the same way', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_checkout', arguments: { checkout: LINE }, _meta: { ucp: { profile: platform.profileUrl } } } };
    const mcpHeaders = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const signed = await send(t, platform, { method: 'POST', path: '/ucp/mcp', body: call, key: first, alter: (headers) => { Object.assign(headers, mcpHeaders); } });
    expect(signed.status).toBe(200);
    expect(signed.text).toContain('"status\\":\\"incomplete\\"');
    const impostor = { ...platformKey(), kid: first.kid };
    const refused = await send(t, platform, { method: 'POST', path: '/ucp/mcp', body: call, key: impostor, alter: (headers) => { Object.assign(headers, mcpHeaders); } });
    expect(refused.status).toBe(401);
    expect(codeOf(refused)).toBe('signature_invalid');
  });
});

describe('UCP request signatures, required (as in live mode)', () => {
  let t: TestApp;
  let platform: Platform;
  const key = platformKey('P-384');

  beforeAll(async () => {
    t = await flowerShop({ env: { BUTIK_UCP_SIGNATURES: 'required' } });
    platform = await signingPlatform([key.jwk]);
  });
  afterAll(async () => {
    await platform?.stop();
    await t?.close();
  });

  it('refuses an unsigned request with signature_missing, REST and MCP alike', async () => {
    const rest = await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE });
    expect(rest.status).toBe(401);
    expect(codeOf(rest)).toBe('signature_missing');
    const mcp = await send(t, platform, { method: 'POST', path: '/ucp/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(mcp.status).toBe(401);
    expect(codeOf(mcp)).toBe('signature_missing');
  });

  it('accepts a request signed with an ES384 key from the profile, a GET without a body included', async () => {
    const created = await send(t, platform, { method: 'POST', path: '/checkout-sessions', body: LINE, key });
    expect(created.status).toBe(201);
    const read = await send(t, platform, { method: 'GET', path: `/checkout-sessions/${created.body.id}?fields=all`, key });
    expect(read.status).toBe(200);
  });
});
