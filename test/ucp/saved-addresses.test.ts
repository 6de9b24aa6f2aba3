import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerAddresses, customers } from '../../src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { ADDRESS, flowerShop, SUCCESS_CARD, ucp } from './helpers.ts';

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
