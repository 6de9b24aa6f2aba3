import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerAddresses } from '../../src/db/schema.ts';
import type { TestApp } from '../helpers/app.ts';
import { ADDRESS, flowerShop, ucp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await flowerShop({ env: { BUTIK_UCP_SAVED_ADDRESSES: 'true' } }); });
afterAll(async () => { await t?.close(); });

const pot = { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }], currency: 'USD' };

describe('BUTIK_UCP_SAVED_ADDRESSES', () => {
  it("offers a known buyer's saved addresses to a shipping method sent without destinations", async () => {
    const created = await ucp(t, 'POST', '/checkout-sessions', {
      ...pot, buyer: { email: 'John.Doe@example.com' }, fulfillment: { methods: [{ type: 'shipping' }] },
    });
    expect(created.body.fulfillment.methods[0].destinations).toEqual([
      { id: 'addr_1', street_address: '123 Main St', address_locality: 'Springfield', address_region: 'IL', postal_code: '62704', address_country: 'US' },
      { id: 'addr_2', street_address: '456 Oak Ave', address_locality: 'Metropolis', address_region: 'NY', postal_code: '10012', address_country: 'US' },
    ]);
    const selected = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, { fulfillment: { methods: [{ selected_destination_id: 'addr_2' }] } });
    expect(selected.body.fulfillment.methods[0].groups[0].options.map((option: { id: string }) => option.id)).toEqual(['std-ship', 'exp-ship-us']);
  });

  it("saves a buyer's new address once and answers with the saved id, the selection following it", async () => {
    const count = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(customerAddresses))[0]?.n;
    const before = await count();
    const send = () => ucp(t, 'POST', '/checkout-sessions', {
      ...pot,
      buyer: { email: 'new.buyer@example.com', full_name: 'New Buyer' },
      fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest_home', ...ADDRESS }], selected_destination_id: 'dest_home' }] },
    });
    const first = await send();
    const second = await send();
    const firstMethod = first.body.fulfillment.methods[0];
    expect(firstMethod.destinations).toEqual([{ ...ADDRESS, id: 'dest_home' }]);
    expect(firstMethod.selected_destination_id).toBe('dest_home');
    expect(second.body.fulfillment.methods[0].destinations[0].id).toBe('dest_home');
    expect(await count()).toBe((before ?? 0) + 1);

    const elsewhere = await ucp(t, 'POST', '/checkout-sessions', {
      ...pot,
      buyer: { email: 'other@example.com' },
      fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest_home', ...ADDRESS, street_address: '1 Other St' }], selected_destination_id: 'dest_home' }] },
    });
    const method = elsewhere.body.fulfillment.methods[0];
    expect(method.destinations[0].id).not.toBe('dest_home');
    expect(method.selected_destination_id).toBe(method.destinations[0].id);
  });
});
