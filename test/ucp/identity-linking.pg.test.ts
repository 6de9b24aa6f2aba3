import { eq } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyers, ucpOrders } from '../../src/db/schema.ts';
import { MASTER_KEY } from '../helpers/app.ts';
import { uniqueRedisPrefix } from '../helpers/rate-limits.ts';
import type { TestApp } from '../helpers/app.ts';
import { CALLBACK, callMcp, issueToken, tokens } from '../helpers/oauth.ts';
import { LINK_SCOPES, PASSWORD, answerLink, linkBuyer, openLink, signUp } from '../helpers/buyer-link.ts';
import { ADDRESS, AGENT, SUCCESS_CARD, flowerShop } from './helpers.ts';

/**
 * UCP identity linking end to end over real HTTP: a buyer signs up, a platform links the account with code + PKCE,
 * and the buyer's token on UCP requests brings the buyer's saved addresses and orders. Key mode: each platform
 * authenticates with its key in X-API-Key and presents the buyer's token as Bearer.
 */
let t: TestApp;
let base: string;
let platformA: string;
let platformB: string;

beforeAll(async () => {
  // With REDIS_URL set, the sign-in limits are counted in Redis, under a prefix of this run's own.
  const redis: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, BUTIK_REDIS_PREFIX: uniqueRedisPrefix() } : {};
  t = await flowerShop({ env: { BUTIK_UCP_AUTH: 'key', BUTIK_UCP_SAVED_ADDRESSES: 'true', BUTIK_TRUST_PROXY: 'true', ...redis } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.app.setBaseUrl(base);
  platformA = await t.keyWith('ucp:checkout');
  platformB = await t.keyWith('ucp:checkout');
});
afterAll(async () => t?.close());

async function ucp(method: string, path: string, options: { key: string; token?: string; body?: unknown }) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      'ucp-agent': AGENT, 'x-api-key': options.key,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.json() as any };
}

const pot = { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }], currency: 'USD' };

async function offeredAddresses(options: { key: string; token?: string }) {
  const created = await ucp('POST', '/checkout-sessions', { ...options, body: { ...pot, fulfillment: { methods: [{ type: 'shipping' }] } } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (created.body.fulfillment.methods[0].destinations ?? []) as Array<Record<string, string>>;
}

async function placeOrder(options: { key: string; token?: string }, street: string) {
  const created = await ucp('POST', '/checkout-sessions', {
    ...options,
    body: {
      ...pot, buyer: { full_name: 'Ann Buyer' },
      fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest', ...ADDRESS, street_address: street }], selected_destination_id: 'dest', groups: [{ selected_option_id: 'std-ship' }] }] },
    },
  });
  expect(created.body.status, JSON.stringify(created.body)).toBe('ready_for_complete');
  const completed = await ucp('POST', `/checkout-sessions/${created.body.id}/complete`, { ...options, body: { payment_data: SUCCESS_CARD } });
  expect(completed.body.status, JSON.stringify(completed.body)).toBe('completed');
  return completed.body.order.id as string;
}

describe('discovery', () => {
  it('advertises identity linking in /.well-known/ucp and UCP scopes in the OAuth metadata', async () => {
    const profile = await (await fetch(`${base}/.well-known/ucp`)).json() as any;
    // The declared 2026-04-08 profile keys its capabilities by name.
    expect(profile.ucp.capabilities['dev.ucp.common.identity_linking']).toEqual([expect.objectContaining({
      version: '2026-04-08', schema: 'https://ucp.dev/2026-04-08/schemas/common/identity_linking.json', config: { scopes: {} },
    })]);
    const older = await (await fetch(`${base}/.well-known/ucp/2026-01-11`)).json() as any;
    expect(older.ucp.capabilities.map((capability: { name: string }) => capability.name)).not.toContain('dev.ucp.common.identity_linking');
    const server = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json() as Record<string, any>;
    expect(server).toMatchObject({
      issuer: base, code_challenge_methods_supported: ['S256'], authorization_response_iss_parameter_supported: true,
      revocation_endpoint: `${base}/oauth/revoke`,
    });
    expect(server.scopes_supported).toEqual(expect.arrayContaining(LINK_SCOPES));
    expect(server.token_endpoint_auth_methods_supported).toContain('none');
    const resource = await (await fetch(`${base}/.well-known/oauth-protected-resource/ucp`)).json();
    expect(resource).toEqual(expect.objectContaining({ resource: `${base}/ucp`, authorization_servers: [base], scopes_supported: LINK_SCOPES }));
  });
});

describe('buyer accounts', () => {
  it('signs a buyer up on a CSRF-protected, uncached page with a strict policy', async () => {
    const page = await fetch(`${base}/oauth/sign-up`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    const text = await page.text();
    expect(text).toContain('<label for="email">E-mail</label>');
    expect(text).toContain('lang="da"');

    const forged = await fetch(`${base}/oauth/sign-up`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'forged@example.com', password: PASSWORD }),
    });
    expect(forged.status).toBe(403);
    expect(await t.database.db.select().from(buyers).where(eq(buyers.email, 'forged@example.com'))).toEqual([]);

    const created = await signUp(base, 'Ann@Example.com');
    expect(created.status).toBe(201);
    const [row] = await t.database.db.select().from(buyers).where(eq(buyers.email, 'ann@example.com'));
    expect(row?.passwordHash).toMatch(/^scrypt\$\d+\$8\$1\$/); // the cost itself: test/access/passwords.test.ts
    expect(row?.passwordHash).not.toContain(PASSWORD);
    expect((await signUp(base, 'ann@example.com')).status).toBe(409);
    const short = await signUp(base, 'short@example.com', 'too short');
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('mindst 12 tegn');
  });

  it('answers a wrong password and an unknown e-mail alike, and limits failures per account and per address', async () => {
    await signUp(base, 'limited@example.com');
    const wrong = await answerLink(base, await openLink(base), { email: 'limited@example.com', password: 'wrong password!' }, '10.1.0.1');
    const unknown = await answerLink(base, await openLink(base), { email: 'nobody@example.com', password: 'wrong password!' }, '10.1.0.2');
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toContain('Forkert e-mail eller adgangskode.');
    expect(unknown.body).toContain('Forkert e-mail eller adgangskode.');
    // Per account: four more failures from other addresses lock it, and then even the right password waits.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await answerLink(base, await openLink(base), { email: 'limited@example.com', password: 'wrong password!' }, `10.1.1.${attempt}`);
    }
    const locked = await answerLink(base, await openLink(base), { email: 'limited@example.com' }, '10.1.2.1');
    expect(locked.status).toBe(429);
    expect(locked.body).toContain('For mange forsøg');
    // Per address: five failures on five accounts lock the address for a sixth.
    await signUp(base, 'other@example.com');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await answerLink(base, await openLink(base), { email: `guess${attempt}@example.com`, password: 'wrong password!' }, '10.1.3.1');
    }
    expect((await answerLink(base, await openLink(base), { email: 'other@example.com' }, '10.1.3.1')).status).toBe(429);
    expect((await answerLink(base, await openLink(base), { email: 'other@example.com' }, '10.1.3.2')).callback).toBeDefined();
  });
});

describe('linking', () => {
  it('runs code + PKCE with UCP scopes, returns iss, and refuses a code without its verifier', async () => {
    await signUp(base, 'flow@example.com');
    const link = await openLink(base);
    expect(link.linkUrl.pathname).toMatch(/^\/oauth\/link\//);
    // The owner's consent page does not answer a buyer's link, with or without the master key.
    const ownerPage = await fetch(new URL(link.linkUrl.pathname.replace('/link/', '/consent/'), base), { headers: { cookie: link.cookies.header() } });
    expect(ownerPage.status).toBe(400);
    const page = await fetch(link.linkUrl, { headers: { cookie: link.cookies.header() } });
    const text = await page.text();
    expect(text).toContain('Shopping &lt;Agent&gt;');
    expect(text).toContain('value="dev.ucp.shopping.order:read" checked');
    expect(page.headers.get('content-security-policy')).toContain('form-action \'self\' http://127.0.0.1:9');
    const answered = await answerLink(base, link, { email: 'flow@example.com', scopes: ['dev.ucp.shopping.order:read'] });
    expect(answered.callback?.searchParams.get('state')).toBe('link-state');
    expect(answered.callback?.searchParams.get('iss')).toBe(base);
    const code = answered.callback?.searchParams.get('code') ?? '';
    const exchange = { grant_type: 'authorization_code', code, client_id: link.client.client_id, redirect_uri: CALLBACK };
    const noVerifier = await tokens(base, exchange);
    expect(noVerifier.status).toBe(400);
    expect(noVerifier.body.error).toBe('invalid_grant');
    // A code is single use: that failed attempt consumed it, so a new link is needed.
    const issued = await linkBuyer(base, 'flow@example.com', ['dev.ucp.shopping.order:read']);
    expect(issued.scope).toBe('dev.ucp.shopping.order:read');
  });

  it('lets the buyer decline, and the platform hears access_denied', async () => {
    const link = await openLink(base);
    const declined = await answerLink(base, link, { email: '', password: '', decision: 'deny' });
    expect(declined.callback?.searchParams.get('error')).toBe('access_denied');
  });
});

describe('acting for a linked buyer', () => {
  it('offers the buyer their own saved addresses and no one else, and lets their token read their orders', async () => {
    await signUp(base, 'carol@example.com');
    await signUp(base, 'dave@example.com');
    const carol = await linkBuyer(base, 'carol@example.com');
    const dave = await linkBuyer(base, 'dave@example.com');

    const orderId = await placeOrder({ key: platformA, token: carol.accessToken }, '1 Carol Lane');
    const [stored] = await t.database.db.select({ buyerId: ucpOrders.buyerId }).from(ucpOrders).where(eq(ucpOrders.orderId, orderId));
    const [carolRow] = await t.database.db.select().from(buyers).where(eq(buyers.email, 'carol@example.com'));
    expect(stored?.buyerId).toBe(carolRow?.id);

    // Another platform acting for Carol is offered her address; without her token, or with Dave's, nobody is.
    expect((await offeredAddresses({ key: platformB, token: carol.accessToken })).map((a) => a.street_address)).toEqual(['1 Carol Lane']);
    expect(await offeredAddresses({ key: platformB })).toEqual([]);
    expect(await offeredAddresses({ key: platformA })).toEqual([]);
    expect(await offeredAddresses({ key: platformB, token: dave.accessToken })).toEqual([]);

    // Platform B did not place the order: it reads it only with Carol's token.
    expect((await ucp('GET', `/orders/${orderId}`, { key: platformB })).status).toBe(404);
    expect((await ucp('GET', `/orders/${orderId}`, { key: platformB, token: dave.accessToken })).status).toBe(404);
    const read = await ucp('GET', `/orders/${orderId}`, { key: platformB, token: carol.accessToken });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(orderId);
  });

  it('offers no imported address for the account\'s e-mail: the e-mail is not verified', async () => {
    // The samples' John Doe has addresses in the merchant's records; an account under his e-mail proves nothing.
    await signUp(base, 'john.doe@example.com');
    const john = await linkBuyer(base, 'john.doe@example.com');
    expect(await offeredAddresses({ key: platformA, token: john.accessToken })).toEqual([]);
  });

  it('needs the scope for each use: order:read alone neither offers addresses nor reads orders placed without it', async () => {
    await signUp(base, 'erin@example.com');
    const full = await linkBuyer(base, 'erin@example.com');
    const orderId = await placeOrder({ key: platformA, token: full.accessToken }, '5 Erin Road');
    const checkoutOnly = await linkBuyer(base, 'erin@example.com', ['dev.ucp.shopping.checkout:manage']);
    expect((await ucp('GET', `/orders/${orderId}`, { key: platformB, token: checkoutOnly.accessToken })).status).toBe(404);
    const readOnly = await linkBuyer(base, 'erin@example.com', ['dev.ucp.shopping.order:read']);
    expect(await offeredAddresses({ key: platformB, token: readOnly.accessToken })).toEqual([]);
    expect((await ucp('GET', `/orders/${orderId}`, { key: platformB, token: readOnly.accessToken })).status).toBe(200);
  });
});

describe('audience binding and revocation', () => {
  it('refuses a buyer token on MCP and an MCP connector token on UCP, with a Bearer challenge', async () => {
    await signUp(base, 'frank@example.com');
    const frank = await linkBuyer(base, 'frank@example.com');
    const onMcp = await callMcp(base, frank.accessToken, 'orders.list');
    expect(onMcp.status).toBe(401);

    const connector = await issueToken(base, ['orders:read'], MASTER_KEY);
    expect((await callMcp(base, connector.accessToken, 'orders.list')).status).toBe(200);
    const onUcp = await ucp('GET', '/orders/anything', { key: platformA, token: connector.accessToken });
    expect(onUcp.status).toBe(401);
    expect(onUcp.body.messages[0]).toMatchObject({ type: 'error', code: 'identity_required' });
    expect(onUcp.challenge)
      .toBe(`Bearer realm="${base}", error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/ucp"`);
  });

  it('stops every token of a link once the platform revokes its refresh token', async () => {
    await signUp(base, 'gina@example.com');
    const gina = await linkBuyer(base, 'gina@example.com');
    expect((await ucp('POST', '/checkout-sessions', { key: platformA, token: gina.accessToken, body: pot })).status).toBe(201);
    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: 'POST', body: new URLSearchParams({ token: gina.refreshToken, client_id: gina.clientId }),
    });
    expect(revoked.status).toBe(200);
    const after = await ucp('POST', '/checkout-sessions', { key: platformA, token: gina.accessToken, body: pot });
    expect(after.status).toBe(401);
    expect(after.body.messages[0].code).toBe('identity_required');
  });
});

describe('open mode', () => {
  let open: TestApp;
  let openBase: string;
  beforeAll(async () => {
    open = await flowerShop({ env: { BUTIK_UCP_SAVED_ADDRESSES: 'true' } });
    await open.app.listen({ host: '127.0.0.1', port: 0 });
    openBase = `http://127.0.0.1:${(open.app.server.address() as AddressInfo).port}`;
    open.app.setBaseUrl(openBase);
  });
  afterAll(async () => open?.close());

  async function openUcp(path: string, body: unknown, token?: string) {
    const response = await fetch(`${openBase}${path}`, {
      method: 'POST',
      headers: { 'ucp-agent': AGENT, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.json() as any };
  }

  it('reads the Bearer as the buyer\'s token: a guest is offered nothing, the linked buyer their own addresses', async () => {
    await signUp(openBase, 'hana@example.com');
    const hana = await linkBuyer(openBase, 'hana@example.com');
    const created = await openUcp('/checkout-sessions', {
      ...pot, fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest', ...ADDRESS, street_address: '8 Hana Street' }], selected_destination_id: 'dest', groups: [{ selected_option_id: 'std-ship' }] }] },
    }, hana.accessToken);
    expect(created.body.status).toBe('ready_for_complete');
    const completed = await openUcp(`/checkout-sessions/${created.body.id}/complete`, { payment_data: SUCCESS_CARD }, hana.accessToken);
    expect(completed.body.status).toBe('completed');

    const asks = { ...pot, fulfillment: { methods: [{ type: 'shipping' }] } };
    const linked = await openUcp('/checkout-sessions', asks, hana.accessToken);
    expect(linked.body.fulfillment.methods[0].destinations.map((a: { street_address: string }) => a.street_address)).toEqual(['8 Hana Street']);
    const guest = await openUcp('/checkout-sessions', { ...asks, buyer: { email: 'hana@example.com' } });
    expect(guest.body.fulfillment.methods[0].destinations ?? []).toEqual([]);

    const forged = await openUcp('/checkout-sessions', asks, 'x'.repeat(43));
    expect(forged.status).toBe(401);
    expect(forged.body.messages[0].code).toBe('identity_required');
    expect(forged.challenge).toContain('error="invalid_token"');
    // The MCP binding admits callers the same way.
    const overMcp = await fetch(`${openBase}/ucp/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${'x'.repeat(43)}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(overMcp.status).toBe(401);
    expect(overMcp.headers.get('www-authenticate')).toContain(`resource_metadata="${openBase}/.well-known/oauth-protected-resource/ucp"`);
  });
});
