import { createHash, randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import canonicalize from 'canonicalize';
import { eq } from 'drizzle-orm';
import { compactVerify, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ucpCheckoutSessions } from '../../src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { ADDRESS, flowerShop, SUCCESS_CARD, ucp } from './helpers.ts';
import { SCHEMAS, violations } from './schemas.ts';
import { platformKey, signingPlatform } from './signing-platform.ts';
import type { PlatformKey } from './signing-platform.ts';

const AP2 = 'dev.ucp.shopping.ap2_mandate';
const AP2_CHECKOUT = 'schemas/shopping/ap2_mandate.json#/$defs/dev.ucp.shopping.checkout';
const AP2_COMPLETE = 'schemas/shopping/ap2_mandate.json#/$defs/ap2_with_checkout_mandate';

type Platform = Awaited<ReturnType<typeof signingPlatform>>;
type Json = Record<string, any>;

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64url');
const sha256 = (data: string) => createHash('sha256').update(data).digest('base64url');

/** Valid against each schema the 2026-04-08 checkout answer must meet, AP2's extension included. */
function expectAp2Checkout(body: unknown) {
  const failures = [...SCHEMAS['2026-04-08'].checkout, AP2_CHECKOUT].flatMap((path) => violations('2026-04-08', path, body).map((error) => `${path} ${error.instancePath} ${error.message ?? ''}`));
  expect(failures).toEqual([]);
}

/**
 * The `checkout_jwt` a platform builds from a checkout answer: the business's detached JWS with the JCS bytes of
 * the checkout (without `ap2`) put back between the dots. `terms` replaces what was signed, as a forger would.
 */
function checkoutJwtOf(checkout: Json, terms?: Json): string {
  const [header, , signature] = String(checkout.ap2.merchant_authorization).split('.');
  const { ap2: _ap2, ...signed } = checkout;
  return `${header}.${b64(canonicalize(terms ?? signed)!)}.${signature}`;
}

/**
 * A closed AP2 checkout mandate as a trusted platform provider issues it: an SD-JWT signed with the platform's
 * key, `checkout_jwt` selectively disclosed, `checkout_hash` over it. Written as UCP's schema has it, without the
 * trailing `~` of RFC 9901 (`rfc9901` adds it).
 */
async function checkoutMandate(
  checkoutJwt: string, key: PlatformKey, options: { expiresIn?: number; kid?: string; rfc9901?: boolean; holder?: PlatformKey } = {},
): Promise<string> {
  const disclosure = b64(JSON.stringify([randomUUID(), 'checkout_jwt', checkoutJwt]));
  const now = Math.floor(Date.now() / 1000);
  const cnf = options.holder ? { cnf: { jwk: options.holder.jwk } } : {};
  const jwt = await new SignJWT({ vct: 'mandate.checkout.1', _sd: [sha256(disclosure)], _sd_alg: 'sha-256', checkout_hash: sha256(checkoutJwt), ...cnf })
    .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? key.kid, typ: 'dc+sd-jwt' })
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (options.expiresIn ?? 600))
    .sign(key.key);
  return `${jwt}~${disclosure}${options.rfc9901 ? '~' : ''}`;
}

/** The mandate presented with a key-binding JWT (RFC 9901) by the holder's key, over `over` (this presentation unless given). */
async function withKeyBinding(mandate: string, holder: PlatformKey, over = `${mandate}~`): Promise<string> {
  const kb = await new SignJWT({ sd_hash: sha256(over), nonce: randomUUID(), aud: 'http://butik.test' })
    .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt' }).setIssuedAt().sign(holder.key);
  return `${mandate}~${kb}`;
}

describe('the AP2 mandate extension (2026-04-08)', () => {
  let t: TestApp;
  let ap2Platform: Platform;
  let plainPlatform: Platform;
  const key = platformKey();

  beforeAll(async () => {
    t = await flowerShop();
    ap2Platform = await signingPlatform([key.jwk], ['dev.ucp.shopping.checkout', AP2]);
    plainPlatform = await signingPlatform([key.jwk]);
  });
  afterAll(async () => {
    await ap2Platform?.stop();
    await plainPlatform?.stop();
    await t?.close();
  });

  const as = (platform: Platform) => ({ 'ucp-agent': `profile="${platform.profileUrl}";version="2026-04-08"` });

  /** A session of `platform` for two bouquets, shipping chosen: ready to complete. */
  async function readyCheckout(platform: Platform): Promise<Json> {
    const created = await ucp(t, 'POST', '/checkout-sessions', {
      line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }],
      fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest_home', ...ADDRESS }], selected_destination_id: 'dest_home' }] },
    }, as(platform));
    expect(created.status).toBe(201);
    const group = created.body.fulfillment.methods[0].groups[0];
    const ready = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, {
      fulfillment: { methods: [{ groups: [{ id: group.id, selected_option_id: group.options[0].id }] }] },
    }, as(platform));
    expect(ready.body.status).toBe('ready_for_complete');
    return ready.body;
  }

  const complete = (platform: Platform, id: string, mandate?: string) => {
    const body = { payment: { instruments: [{ ...SUCCESS_CARD, selected: true }] }, ...(mandate === undefined ? {} : { ap2: { checkout_mandate: mandate } }) };
    return ucp(t, 'POST', `/checkout-sessions/${id}/complete`, body, as(platform));
  };

  /** A refused completion leaves the session open and unpaid. */
  async function expectRefused(platform: Platform, id: string, mandate: string | undefined, code: string) {
    const refused = await complete(platform, id, mandate);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe(code);
    const after = await ucp(t, 'GET', `/checkout-sessions/${id}`, undefined, as(platform));
    expect(after.body.status).toBe('ready_for_complete');
  }

  it('is advertised in the 2026-04-08 profile only, extending checkout with SD-JWT mandates', async () => {
    const declared = JSON.parse((await t.app.inject({ method: 'GET', url: '/.well-known/ucp' })).body);
    expect(declared.ucp.capabilities[AP2]).toEqual([expect.objectContaining({
      version: '2026-04-08', extends: 'dev.ucp.shopping.checkout', config: { vp_formats_supported: { 'dc+sd-jwt': {} } },
    })]);
    expect(violations('2026-04-08', SCHEMAS['2026-04-08'].profile, declared)).toEqual([]);
    const older = JSON.parse((await t.app.inject({ method: 'GET', url: '/.well-known/ucp/2026-01-23' })).body);
    expect(older.ucp.capabilities).not.toHaveProperty(AP2);
  });

  it('signs every checkout answer of a platform speaking it, with a key the profile publishes, over the JCS bytes of the checkout', async () => {
    const ready = await readyCheckout(ap2Platform);
    expectAp2Checkout(ready);
    expect(ready.ucp.capabilities[AP2]).toEqual([{ version: '2026-04-08' }]);
    const [header] = ready.ap2.merchant_authorization.split('.');
    const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString());
    expect(alg).toBe('ES256');
    const published = JSON.parse((await t.app.inject({ method: 'GET', url: '/.well-known/ucp' })).body).signing_keys;
    const shopKey = await importJWK(published.find((jwk: { kid: string }) => jwk.kid === kid), 'ES256');
    await expect(compactVerify(checkoutJwtOf(ready), shopKey)).resolves.toBeDefined();
    // Another total under the same signature does not verify.
    const { ap2: _ap2, ...terms } = ready;
    await expect(compactVerify(checkoutJwtOf(ready, { ...terms, totals: [{ type: 'total', amount: 1 }] }), shopKey)).rejects.toThrow();

    const read = await ucp(t, 'GET', `/checkout-sessions/${ready.id}`, undefined, as(ap2Platform));
    expect(read.body.ap2.merchant_authorization).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
  });

  it('completes with a valid checkout mandate, in UCP\'s form or RFC 9901\'s, kept with the session', async () => {
    const ready = await readyCheckout(ap2Platform);
    const mandate = await checkoutMandate(checkoutJwtOf(ready), key);
    expect(violations('2026-04-08', AP2_COMPLETE, { checkout_mandate: mandate })).toEqual([]);
    const completed = await complete(ap2Platform, ready.id, mandate);
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe('completed');
    expectAp2Checkout(completed.body);
    const [stored] = await t.database.db.select({ signals: ucpCheckoutSessions.signals }).from(ucpCheckoutSessions).where(eq(ucpCheckoutSessions.id, ready.id));
    expect(stored?.signals).toEqual({ ap2_checkout_mandate: mandate });

    const rfcForm = await readyCheckout(ap2Platform);
    const withTilde = await complete(ap2Platform, rfcForm.id, await checkoutMandate(checkoutJwtOf(rfcForm), key, { rfc9901: true }));
    expect(withTilde.body.status).toBe('completed');
  });

  it('refuses a completion without a mandate: mandate_required', async () => {
    const ready = await readyCheckout(ap2Platform);
    await expectRefused(ap2Platform, ready.id, undefined, 'mandate_required');
  });

  it('holds a session started under AP2 to it: naming an older version or another platform\'s profile skips no mandate', async () => {
    for (const agent of [`profile="${ap2Platform.profileUrl}";version="2026-01-11"`, `profile="${plainPlatform.profileUrl}";version="2026-04-08"`]) {
      const ready = await readyCheckout(ap2Platform);
      const body = { payment: { instruments: [{ ...SUCCESS_CARD, selected: true }] } };
      const refused = await ucp(t, 'POST', `/checkout-sessions/${ready.id}/complete`, body, { 'ucp-agent': agent });
      expect({ agent, status: refused.status }).toEqual({ agent, status: 422 });
      expect(JSON.stringify(refused.body)).toMatch(/mandate_required/i);
      const after = await ucp(t, 'GET', `/checkout-sessions/${ready.id}`, undefined, as(ap2Platform));
      expect(after.body.status).toBe('ready_for_complete');
    }
  });

  it('is not paid on the buyer\'s page: it says in plain words that the agent\'s service must finish it', async () => {
    const ready = await readyCheckout(ap2Platform);
    const page = await t.app.inject({ method: 'GET', url: `/checkout/${ready.id}` });
    expect(page.statusCode).toBe(200);
    const cookie = page.cookies.find((c) => c.name === 'butik_csrf');
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const option = /name="option" value="([^"]+)"[^>]*checked/.exec(page.body)?.[1] ?? /name="option" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const fields = {
      _csrf: token, email: 'karen@example.dk', name: 'Karen Blixen', phone: '+4512345678', street: 'Rungstedvej 111', zip: '2960',
      city: 'Rungsted Kyst', country: 'DK', option, card: '4242 4242 4242 4242', action: 'pay',
    };
    const paid = await t.app.inject({
      method: 'POST', url: `/checkout/${ready.id}`, payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `butik_csrf=${cookie?.value ?? ''}` },
    });
    expect(paid.statusCode).toBe(422);
    expect(paid.body).toContain('AP2-fuldmagt');
    expect(paid.body).toContain('Gør købet færdigt hos den tjeneste, der sendte dig hertil.');
    const after = await ucp(t, 'GET', `/checkout-sessions/${ready.id}`, undefined, as(ap2Platform));
    expect(after.body.status).not.toBe('completed');
  });

  it('refuses a tampered mandate, or one signed with another key under the listed kid: mandate_invalid_signature', async () => {
    const ready = await readyCheckout(ap2Platform);
    const mandate = await checkoutMandate(checkoutJwtOf(ready), key);
    const [jwt, ...rest] = mandate.split('~');
    const [header, payload, signature] = jwt!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = [`${header}.${b64(JSON.stringify({ ...claims, exp: claims.exp + 3600 }))}.${signature}`, ...rest].join('~');
    await expectRefused(ap2Platform, ready.id, tampered, 'mandate_invalid_signature');

    const impostor = { ...platformKey(), kid: key.kid };
    await expectRefused(ap2Platform, ready.id, await checkoutMandate(checkoutJwtOf(ready), impostor), 'mandate_invalid_signature');
  });

  it('checks a key-binding JWT when one is sent: by the cnf key, over this presentation', async () => {
    const holder = platformKey();
    const ready = await readyCheckout(ap2Platform);
    const mandate = await checkoutMandate(checkoutJwtOf(ready), key, { holder });
    await expectRefused(ap2Platform, ready.id, await withKeyBinding(mandate, platformKey()), 'mandate_invalid_signature');
    await expectRefused(ap2Platform, ready.id, await withKeyBinding(mandate, holder, 'another presentation~'), 'mandate_invalid_signature');
    const bound = await complete(ap2Platform, ready.id, await withKeyBinding(mandate, holder));
    expect(bound.body.status).toBe('completed');
  });

  it('refuses a mandate signed by a key the platform does not list: agent_missing_key', async () => {
    const ready = await readyCheckout(ap2Platform);
    await expectRefused(ap2Platform, ready.id, await checkoutMandate(checkoutJwtOf(ready), platformKey()), 'agent_missing_key');
  });

  it('refuses an expired mandate: mandate_expired', async () => {
    const ready = await readyCheckout(ap2Platform);
    await expectRefused(ap2Platform, ready.id, await checkoutMandate(checkoutJwtOf(ready), key, { expiresIn: -30 }), 'mandate_expired');
  });

  it('refuses a mandate for other terms: an earlier total (mandate_scope_mismatch), a total the shop never signed (merchant_authorization_invalid)', async () => {
    const ready = await readyCheckout(ap2Platform);
    const earlier = await checkoutMandate(checkoutJwtOf(ready), key);
    const changed = await ucp(t, 'PUT', `/checkout-sessions/${ready.id}`, { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 3 }] }, as(ap2Platform));
    expect(changed.status).toBe(200);
    expect(changed.body.totals).not.toEqual(ready.totals);
    const group = changed.body.fulfillment.methods[0].groups[0];
    const current = await ucp(t, 'PUT', `/checkout-sessions/${ready.id}`, {
      fulfillment: { methods: [{ groups: [{ id: group.id, selected_option_id: group.options[0].id }] }] },
    }, as(ap2Platform));
    expect(current.body.status).toBe('ready_for_complete');
    await expectRefused(ap2Platform, ready.id, earlier, 'mandate_scope_mismatch');

    const { ap2: _ap2, ...terms } = current.body;
    const cheaper = { ...terms, totals: terms.totals.map((total: Json) => (total.type === 'total' ? { ...total, amount: 100 } : total)) };
    await expectRefused(ap2Platform, ready.id, await checkoutMandate(checkoutJwtOf(current.body, cheaper), key), 'merchant_authorization_invalid');

    const accepted = await complete(ap2Platform, ready.id, await checkoutMandate(checkoutJwtOf(current.body), key));
    expect(accepted.body.status).toBe('completed');
  });

  it('is the same over MCP: complete_checkout signed and refused alike', async () => {
    const client = new Client({ name: 'ap2-platform-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/ucp/mcp', await t.app.listen({ host: '127.0.0.1', port: 0 }))));
    try {
      const _meta = { ucp: { profile: ap2Platform.profileUrl, version: '2026-04-08' } };
      const ready = await readyCheckout(ap2Platform);
      const read = (await client.callTool({ name: 'get_checkout', arguments: { id: ready.id }, _meta })).structuredContent as Json;
      expect(read.ap2.merchant_authorization).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
      const payment = { instruments: [{ ...SUCCESS_CARD, selected: true }] };
      const refused = await client.callTool({ name: 'complete_checkout', arguments: { id: ready.id, payment, idempotency_key: randomUUID() }, _meta })
        .then(() => undefined, (error: { data: Json }) => error.data);
      expect(refused).toMatchObject({ code: 'mandate_required' });
      const completed = (await client.callTool({
        name: 'complete_checkout',
        arguments: { id: ready.id, payment, ap2: { checkout_mandate: await checkoutMandate(checkoutJwtOf(read), key) }, idempotency_key: randomUUID() },
        _meta,
      })).structuredContent as Json;
      expect(completed.status).toBe('completed');
    } finally {
      await client.close();
    }
  });

  it('leaves a platform that does not speak it as before: no ap2 member, completion without a mandate', async () => {
    const ready = await readyCheckout(plainPlatform);
    expect(ready).not.toHaveProperty('ap2');
    expect(ready.ucp.capabilities).not.toHaveProperty(AP2);
    const completed = await complete(plainPlatform, ready.id);
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe('completed');
    expect(completed.body).not.toHaveProperty('ap2');
  });
});
