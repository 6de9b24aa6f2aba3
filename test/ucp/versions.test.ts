import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ucpCheckoutSessions } from '../../src/db/schema.ts';
import { UCP_VERSIONS } from '../../src/ucp/core/versions.ts';
import type { UcpVersion } from '../../src/ucp/core/versions.ts';
import type { TestApp } from '../helpers/app.ts';
import { ADDRESS, flowerShop, PROFILE, SUCCESS_CARD, ucp } from './helpers.ts';
import { simulatedPlatform } from './platform.ts';
import { SCHEMAS, violations } from './schemas.ts';

let t: TestApp;
let platform: Awaited<ReturnType<typeof simulatedPlatform>>;
beforeAll(async () => {
  t = await flowerShop();
  platform = await simulatedPlatform({ shopKeys: async () => JSON.parse((await t.app.inject({ method: 'GET', url: '/.well-known/ucp' })).body).signing_keys });
});
afterAll(async () => {
  await platform?.stop();
  await t?.close();
});

const speaking = (version: string) => ({ 'ucp-agent': `profile="${PROFILE}";version="${version}"` });

/** Every schema of `paths` accepts `data`; the failures name the schema and the member. */
function expectValid(version: UcpVersion, paths: readonly string[], data: unknown) {
  const failures = paths.flatMap((path) => violations(version, path, data).map((error) => `${path} ${error.instancePath} ${error.message ?? ''}`));
  expect(failures).toEqual([]);
}

const created = (version: UcpVersion) => ({
  line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }],
  ...(version === '2026-01-11' ? { currency: 'USD' } : {}),
  fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest_home', ...ADDRESS }], selected_destination_id: 'dest_home' }] },
  discounts: { codes: ['10OFF'] },
});

/** Completion as each version sends it: 2026-01-11's payment_data, later versions' payment.instruments. */
const completion = (version: UcpVersion) => (version === '2026-01-11'
  ? { payment_data: SUCCESS_CARD, risk_signals: { 'dev.ucp.buyer_ip': '203.0.113.7' } }
  : { payment: { instruments: [{ ...SUCCESS_CARD, selected: true }] }, signals: { 'dev.ucp.buyer_ip': '203.0.113.7' } });

describe('/.well-known/ucp and the profiles of the older versions', () => {
  it('declares 2026-04-08 and links a self-contained profile for 2026-01-23 and 2026-01-11, each valid for its version', async () => {
    const declared = JSON.parse((await t.app.inject({ method: 'GET', url: '/.well-known/ucp' })).body);
    expect(declared.ucp.version).toBe('2026-04-08');
    expect(declared.ucp.supported_versions).toEqual({
      '2026-01-23': 'http://butik.test/.well-known/ucp/2026-01-23', '2026-01-11': 'http://butik.test/.well-known/ucp/2026-01-11',
    });
    expect(declared.ucp.services['dev.ucp.shopping']).toEqual([
      expect.objectContaining({ version: '2026-04-08', transport: 'rest', endpoint: 'http://butik.test' }),
      expect.objectContaining({ version: '2026-04-08', transport: 'mcp', endpoint: 'http://butik.test/ucp/mcp' }),
    ]);
    expect(Object.keys(declared.ucp.capabilities)).toEqual([
      'dev.ucp.shopping.checkout', 'dev.ucp.shopping.order', 'dev.ucp.shopping.fulfillment', 'dev.ucp.shopping.discount', 'dev.ucp.shopping.buyer_consent',
      'dev.ucp.common.identity_linking', 'dev.ucp.shopping.catalog.search', 'dev.ucp.shopping.catalog.lookup', 'dev.ucp.shopping.cart',
      'dev.ucp.shopping.ap2_mandate',
    ]);
    expect(declared.ucp.payment_handlers['dev.ucp.mock_payment']).toEqual([expect.objectContaining({ id: 'mock_payment_handler', schema: 'https://ucp.dev/schemas/mock.json' })]);
    expectValid('2026-04-08', [SCHEMAS['2026-04-08'].profile], declared);

    for (const version of ['2026-01-23', '2026-01-11'] as const) {
      const response = await t.app.inject({ method: 'GET', url: `/.well-known/ucp/${version}` });
      expect(response.statusCode).toBe(200);
      const leaf = JSON.parse(response.body);
      expect(leaf.ucp.version).toBe(version);
      expect(leaf.ucp).not.toHaveProperty('supported_versions');
      expect(leaf.signing_keys).toEqual(declared.signing_keys);
      expectValid(version, [SCHEMAS[version].profile], leaf);
    }
    const unknown = await t.app.inject({ method: 'GET', url: '/.well-known/ucp/2026-04-08' });
    expect(unknown.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/.well-known/ucp/2025-12-01' })).statusCode).toBe(404);
  });
});

describe.each(UCP_VERSIONS)('a purchase in %s', (version) => {
  it('is answered in that version\'s shapes: checkout, completion and order valid against its schemas', async () => {
    const headers = speaking(version);
    const create = await ucp(t, 'POST', '/checkout-sessions', created(version), headers);
    expect(create.status).toBe(201);
    expect(create.body.ucp.version).toBe(version);
    expectValid(version, SCHEMAS[version].checkout, create.body);
    const group = create.body.fulfillment.methods[0].groups[0];
    const ready = await ucp(t, 'PUT', `/checkout-sessions/${create.body.id}`, {
      fulfillment: { methods: [{ groups: [{ id: group.id, selected_option_id: group.options[0].id }] }] },
    }, headers);
    expect(ready.body.status).toBe('ready_for_complete');
    expectValid(version, SCHEMAS[version].checkout, ready.body);
    const discount = ready.body.totals.find((total: { type: string }) => total.type === 'discount');
    // 2026-04-08 signs totals: a discount takes money off, so it is negative; earlier versions show its size.
    expect(discount.amount).toBe(version === '2026-04-08' ? -700 : 700);
    if (version === '2026-01-11') {
      expect(ready.body.ucp.capabilities).toContainEqual({ name: 'dev.ucp.shopping.checkout', version });
      expect(ready.body.payment.handlers).toEqual([expect.objectContaining({ id: 'mock_payment_handler' })]);
    } else {
      expect(ready.body.ucp.capabilities['dev.ucp.shopping.checkout']).toEqual([{ version }]);
      expect(ready.body.ucp.payment_handlers['dev.ucp.mock_payment']).toEqual([expect.objectContaining({ id: 'mock_payment_handler' })]);
      expect(ready.body.payment).not.toHaveProperty('handlers');
    }

    const complete = await ucp(t, 'POST', `/checkout-sessions/${create.body.id}/complete`, completion(version), headers);
    expect(complete.status).toBe(200);
    expect(complete.body.status).toBe('completed');
    expectValid(version, SCHEMAS[version].checkout, complete.body);
    const [stored] = await t.database.db.select({ signals: ucpCheckoutSessions.signals }).from(ucpCheckoutSessions).where(eq(ucpCheckoutSessions.id, create.body.id));
    expect(stored?.signals).toEqual({ 'dev.ucp.buyer_ip': '203.0.113.7' });

    const order = await ucp(t, 'GET', `/orders/${complete.body.order.id}`, undefined, headers);
    expect(order.status).toBe(200);
    expect(order.body.ucp.version).toBe(version);
    expectValid(version, [SCHEMAS[version].order], order.body);
    if (version === '2026-04-08') expect(order.body.currency).toBe('USD');
    else expect(order.body).not.toHaveProperty('currency');
  });
});

describe('negotiation', () => {
  it('takes the version from the platform profile when UCP-Agent names none, and the declared one when neither does', async () => {
    const fromProfile = await ucp(t, 'POST', '/checkout-sessions', created('2026-01-11'), { 'ucp-agent': `profile="${platform.profileUrl}"` });
    expect(fromProfile.body.ucp.version).toBe('2026-01-11');
    const unknownProfile = await ucp(t, 'POST', '/checkout-sessions', created('2026-04-08'), { 'ucp-agent': `profile="${PROFILE}"` });
    expect(unknownProfile.body.ucp.version).toBe('2026-04-08');
  });

  it('refuses a version it does not serve as 2026-04-08 says: 422 version_unsupported, nothing created', async () => {
    for (const asked of ['2099-01-01', '2025-10-01', '2026-02-01']) {
      const refused = await ucp(t, 'POST', '/checkout-sessions', created('2026-04-08'), speaking(asked));
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        code: 'version_unsupported',
        content: `Version ${asked} is not supported. This business implements version 2026-04-08 and also serves 2026-01-23, 2026-01-11.`,
        continue_url: 'http://butik.test/',
      });
    }
    // The same Idempotency-Key with another version is refused too: the version is settled before any replay.
    const key = { 'idempotency-key': 'versions-replay' };
    expect((await ucp(t, 'POST', '/checkout-sessions', created('2026-04-08'), { ...speaking('2026-04-08'), ...key })).status).toBe(201);
    expect((await ucp(t, 'POST', '/checkout-sessions', created('2026-04-08'), { ...speaking('2099-01-01'), ...key })).status).toBe(422);
  });

  it('answers 2026-04-08\'s business outcomes in-band: 200 with ucp.status error and a typed message', async () => {
    for (const [item, code] of [['pink_wumpus', 'not_found'], ['gardenias', 'out_of_stock']] as const) {
      const outcome = await ucp(t, 'POST', '/checkout-sessions', { ...created('2026-04-08'), line_items: [{ item: { id: item }, quantity: 1 }] }, speaking('2026-04-08'));
      expect(outcome.status).toBe(200);
      expect(outcome.body).toMatchObject({ ucp: { version: '2026-04-08', status: 'error' }, messages: [{ type: 'error', code, severity: 'unrecoverable' }] });
      expectValid('2026-04-08', ['schemas/shopping/types/error_response.json'], outcome.body);
    }
    const old = await ucp(t, 'POST', '/checkout-sessions', { ...created('2026-01-11'), line_items: [{ item: { id: 'pink_wumpus' }, quantity: 1 }] }, speaking('2026-01-11'));
    expect(old.status).toBe(400);
    expect(old.body.code).toBe('INVALID_REQUEST');
  });

  it('keeps the buyer\'s context and shows it from 2026-01-23 on; 2026-01-11 requires the currency, later versions do not', async () => {
    const context = { address_country: 'US', language: 'en-US', intent: 'a gift for a birthday' };
    const withContext = await ucp(t, 'POST', '/checkout-sessions', { ...created('2026-04-08'), context }, speaking('2026-04-08'));
    expect(withContext.body).toMatchObject({ currency: 'USD', context });
    const old = await ucp(t, 'GET', `/checkout-sessions/${withContext.body.id}`, undefined, speaking('2026-01-11'));
    expect(old.body).not.toHaveProperty('context');
    const { currency: _currency, ...withoutCurrency } = created('2026-01-11') as Record<string, unknown>;
    const missing = await ucp(t, 'POST', '/checkout-sessions', withoutCurrency, speaking('2026-01-11'));
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/currency/);
  });
});

describe('a shop declaring 2026-01-11 (BUTIK_UCP_VERSION)', () => {
  it('publishes the 2026-01-11 profile alone and refuses 2026-04-08 as 2026-01-11 did: 400 VERSION_UNSUPPORTED', async () => {
    const older = await flowerShop({ env: { BUTIK_UCP_VERSION: '2026-01-11' } });
    try {
      const profile = JSON.parse((await older.app.inject({ method: 'GET', url: '/.well-known/ucp' })).body);
      expect(profile.ucp.version).toBe('2026-01-11');
      expect(profile.ucp).not.toHaveProperty('supported_versions');
      expectValid('2026-01-11', [SCHEMAS['2026-01-11'].profile], profile);
      const refused = await ucp(older, 'POST', '/checkout-sessions', created('2026-04-08'), speaking('2026-04-08'));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ status: 'requires_escalation', code: 'VERSION_UNSUPPORTED' });
      const served = await ucp(older, 'POST', '/checkout-sessions', created('2026-01-11'), { 'ucp-agent': `profile="${PROFILE}"` });
      expect(served.body.ucp.version).toBe('2026-01-11');
    } finally {
      await older.close();
    }
  });
});
