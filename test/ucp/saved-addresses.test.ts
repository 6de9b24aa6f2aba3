import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerAddresses, customers } from '../../src/db/schema.ts';
import { signRequest } from '../../src/ucp/signatures/message-signatures.ts';
import { trustedPlatform } from '../../src/ucp/identity/trusted-platforms.ts';
import { BASE_URL } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ADDRESS, flowerShop, SUCCESS_CARD, ucp } from './helpers.ts';
import { platformKey, signingPlatform } from './signing-platform.ts';
import type { PlatformKey } from './signing-platform.ts';

const SAVED = { BUTIK_UCP_SAVED_ADDRESSES: 'true' };
const pot = { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }], currency: 'USD' };
const asksForAddresses = { fulfillment: { methods: [{ type: 'shipping' }] } };
/** The imported samples' buyer, with two addresses of the merchant's own records. */
const JOHN = 'John.Doe@example.com';
const SHIPPED = { street_address: ADDRESS.street_address, address_locality: ADDRESS.address_locality, address_region: ADDRESS.address_region, postal_code: ADDRESS.postal_code, address_country: ADDRESS.address_country };

const shipTo = (destination: Record<string, string>) => ({
  fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest', ...destination }], selected_destination_id: 'dest', groups: [{ selected_option_id: 'std-ship' }] }] },
});

async function addressesOf(t: TestApp, email: string) {
  return t.database.db.select({ street: customerAddresses.streetAddress, owner: customerAddresses.owner })
    .from(customerAddresses).innerJoin(customers, eq(customers.id, customerAddresses.customerId))
    .where(sql`lower(${customers.email}) = lower(${email})`);
}

async function offered(t: TestApp, email: string, headers: Record<string, string> = {}) {
  const created = await ucp(t, 'POST', '/checkout-sessions', { ...pot, buyer: { email }, ...asksForAddresses }, headers);
  expect(created.status).toBe(201);
  // A method without destinations leaves the member out.
  return created.body.fulfillment.methods[0].destinations ?? [];
}

async function placeOrder(t: TestApp, email: string, destination: Record<string, string>, headers: Record<string, string> = {}) {
  const created = await ucp(t, 'POST', '/checkout-sessions', { ...pot, buyer: { email, full_name: 'Ann Buyer' }, ...shipTo(destination) }, headers);
  expect(created.body.status).toBe('ready_for_complete');
  const completed = await ucp(t, 'POST', `/checkout-sessions/${created.body.id}/complete`, { payment_data: SUCCESS_CARD }, headers);
  expect(completed.body.status).toBe('completed');
}

describe('BUTIK_UCP_SAVED_ADDRESSES with BUTIK_UCP_AUTH=key', () => {
  let t: TestApp;
  let platformA: Record<string, string>;
  let platformB: Record<string, string>;
  beforeAll(async () => {
    t = await flowerShop({ env: { ...SAVED, BUTIK_UCP_AUTH: 'key' } });
    platformA = { 'x-api-key': await t.keyWith('ucp:checkout') };
    platformB = { 'x-api-key': await t.keyWith('ucp:checkout') };
  });
  afterAll(async () => { await t?.close(); });

  it('saves nothing from a session that is only created and updated', async () => {
    const email = 'planted@example.com';
    const created = await ucp(t, 'POST', '/checkout-sessions', { ...pot, buyer: { email }, ...shipTo(SHIPPED) }, platformA);
    expect(created.status).toBe(201);
    const updated = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, shipTo({ ...SHIPPED, street_address: '9 Planted Rd' }), platformA);
    expect(updated.status).toBe(200);
    expect(await addressesOf(t, email)).toEqual([]);
    expect(await offered(t, email, platformA)).toEqual([]);
  });

  it('saves the address of a completed order once and offers it to the same key later', async () => {
    const email = 'ann@example.com';
    await placeOrder(t, email, SHIPPED, platformA);
    await placeOrder(t, email, SHIPPED, platformA);
    expect(await addressesOf(t, email)).toEqual([{ street: '123 Main St', owner: expect.stringMatching(/^key:/) }]);

    const [address, ...rest] = await offered(t, email.toUpperCase(), platformA);
    expect(rest).toEqual([]);
    expect(address).toEqual({ id: expect.any(String), ...SHIPPED });
    const created = await ucp(t, 'POST', '/checkout-sessions', { ...pot, buyer: { email }, ...asksForAddresses }, platformA);
    const chosen = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, { fulfillment: { methods: [{ selected_destination_id: address.id }] } }, platformA);
    expect(chosen.body.fulfillment.methods[0].groups[0].options.map((option: { id: string }) => option.id)).toEqual(['std-ship', 'exp-ship-us']);
  });

  it("never offers one key's saved addresses to another key naming the same buyer", async () => {
    const email = 'bo@example.com';
    await placeOrder(t, email, { ...SHIPPED, street_address: '7 Private Way' }, platformA);
    expect(await offered(t, email, platformA)).toHaveLength(1);
    expect(await offered(t, email, platformB)).toEqual([]);
  });

  it("offers no key the merchant's imported addresses, which no buyer has proven to own", async () => {
    expect(await addressesOf(t, JOHN)).toHaveLength(2);
    expect(await offered(t, JOHN, platformA)).toEqual([]);
  });
});

describe('BUTIK_UCP_SAVED_ADDRESSES with BUTIK_UCP_AUTH=open', () => {
  let t: TestApp;
  beforeAll(async () => { t = await flowerShop({ env: SAVED }); });
  afterAll(async () => { await t?.close(); });

  it("offers an anonymous caller naming a known buyer's e-mail none of the buyer's addresses", async () => {
    expect(await offered(t, JOHN)).toEqual([]);
  });

  it('keeps no address from an anonymous order, since no identity could be offered it again', async () => {
    const email = 'guest@example.com';
    await placeOrder(t, email, SHIPPED);
    expect(await addressesOf(t, email)).toEqual([]);
    expect(await offered(t, email)).toEqual([]);
  });
});

/** The merchant's imported addresses of the samples' John Doe, as UCP destinations. */
const JOHNS_ADDRESSES = [
  { id: 'addr_1', street_address: '123 Main St', address_locality: 'Springfield', address_region: 'IL', postal_code: '62704', address_country: 'US' },
  { id: 'addr_2', street_address: '456 Oak Ave', address_locality: 'Metropolis', address_region: 'NY', postal_code: '10012', address_country: 'US' },
];
const TRUSTED = 'https://trusted.example/profile';
const agent = (profile: string) => ({ 'ucp-agent': `profile="${profile}"` });

describe('BUTIK_UCP_TRUSTED_PLATFORMS in test mode, unsigned requests', () => {
  let t: TestApp;
  beforeAll(async () => { t = await flowerShop({ env: { ...SAVED, BUTIK_UCP_TRUSTED_PLATFORMS: `${TRUSTED}, https://other-trusted.example/profile` } }); });
  afterAll(async () => { await t?.close(); });

  it("offers a trusted platform the merchant's addresses of the buyer its session names", async () => {
    expect(await offered(t, JOHN, agent(TRUSTED))).toEqual(JOHNS_ADDRESSES);
    expect(await offered(t, 'jane.doe@example.com', agent(TRUSTED))).toEqual([]);
  });

  it('names an address the platform sends by the id the shop knows it by, selected or not', async () => {
    const created = await ucp(t, 'POST', '/checkout-sessions', { ...pot, buyer: { email: JOHN } }, agent(TRUSTED));
    const { id: _id, ...same } = JOHNS_ADDRESSES[0]!;
    const sent = { fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: '', ...same }, { id: 'mine', ...SHIPPED, street_address: '1 New Rd' }] }] } };
    const updated = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, sent, agent(TRUSTED));
    expect(updated.body.fulfillment.methods[0].destinations.map((destination: { id: string }) => destination.id)).toEqual(['addr_1', 'mine']);
    const chosen = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, { fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'typed', ...same }], selected_destination_id: 'typed' }] } }, agent(TRUSTED));
    expect(chosen.body.fulfillment.methods[0].selected_destination_id).toBe('addr_1');
  });

  it('offers a platform the owner did not name nothing, nor a request without a buyer e-mail', async () => {
    expect(await offered(t, JOHN, agent('https://untrusted.example/profile'))).toEqual([]);
    expect(await offered(t, JOHN)).toEqual([]);
    const created = await ucp(t, 'POST', '/checkout-sessions', { ...pot, ...asksForAddresses }, agent(TRUSTED));
    expect(created.body.fulfillment.methods[0].destinations ?? []).toEqual([]);
  });

  it('keeps the address a trusted platform ships to for that platform alone', async () => {
    const email = 'cleo@example.com';
    await placeOrder(t, email, SHIPPED, agent(TRUSTED));
    expect(await addressesOf(t, email)).toEqual([{ street: '123 Main St', owner: `platform:${TRUSTED}` }]);
    expect(await offered(t, email, agent(TRUSTED))).toEqual([{ id: expect.any(String), ...SHIPPED }]);
    expect(await offered(t, email, agent('https://other-trusted.example/profile'))).toEqual([]);
    expect(await offered(t, email, agent('https://untrusted.example/profile'))).toEqual([]);
  });
});

describe('BUTIK_UCP_TRUSTED_PLATFORMS with signatures required (as in live mode)', () => {
  let t: TestApp;
  let trusted: Awaited<ReturnType<typeof signingPlatform>>;
  let untrusted: Awaited<ReturnType<typeof signingPlatform>>;
  const trustedKey = platformKey();
  const untrustedKey = platformKey();

  beforeAll(async () => {
    trusted = await signingPlatform([trustedKey.jwk]);
    untrusted = await signingPlatform([untrustedKey.jwk]);
    t = await flowerShop({ env: { ...SAVED, BUTIK_UCP_SIGNATURES: 'required', BUTIK_UCP_TRUSTED_PLATFORMS: trusted.profileUrl } });
  });
  afterAll(async () => {
    await trusted?.stop();
    await untrusted?.stop();
    await t?.close();
  });

  async function signedOffer(profileUrl: string, key?: PlatformKey) {
    const body = JSON.stringify({ ...pot, buyer: { email: JOHN }, ...asksForAddresses });
    const headers: Record<string, string> = { 'ucp-agent': `profile="${profileUrl}"`, 'idempotency-key': randomUUID(), 'content-type': 'application/json' };
    if (key) Object.assign(headers, await signRequest({ method: 'POST', url: `${BASE_URL}/checkout-sessions`, headers, body }, key, new Date()));
    const response = await t.app.inject({ method: 'POST', url: '/checkout-sessions', headers, payload: body });
    return { status: response.statusCode, body: JSON.parse(response.body) };
  }

  it("offers the buyer's addresses to a request the trusted platform signed", async () => {
    const created = await signedOffer(trusted.profileUrl, trustedKey);
    expect(created.status).toBe(201);
    expect(created.body.fulfillment.methods[0].destinations).toEqual(JOHNS_ADDRESSES);
  });

  it('offers nothing to a request another platform signed, and refuses an unsigned claim to be the trusted one', async () => {
    const other = await signedOffer(untrusted.profileUrl, untrustedKey);
    expect(other.status).toBe(201);
    expect(other.body.fulfillment.methods[0].destinations ?? []).toEqual([]);
    const unsigned = await signedOffer(trusted.profileUrl);
    expect(unsigned).toMatchObject({ status: 401, body: { code: 'signature_missing' } });
    // Another platform's key cannot sign as the trusted one: the key is looked up in the profile UCP-Agent names.
    expect(await signedOffer(trusted.profileUrl, untrustedKey)).toMatchObject({ status: 401, body: { code: 'key_not_found' } });
  });

  it('believes an unsigned claim only where the shop serves unsigned requests at all (test mode)', () => {
    const agentHeader = `profile="${trusted.profileUrl}"`;
    expect(trustedPlatform({ platforms: [trusted.profileUrl], unsignedClaims: false }, agentHeader, undefined)).toBeUndefined();
    expect(trustedPlatform({ platforms: [trusted.profileUrl], unsignedClaims: true }, agentHeader, undefined)).toBe(trusted.profileUrl);
    expect(trustedPlatform({ platforms: [], unsignedClaims: true }, agentHeader, trusted.profileUrl)).toBeUndefined();
  });
});
