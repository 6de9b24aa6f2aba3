import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { flowerShop, SUCCESS_CARD, ucp } from './helpers.ts';

let t: TestApp;
let now = new Date('2026-11-25T08:00:00Z');
beforeAll(async () => { t = await flowerShop({ clock: () => now }); });
afterAll(async () => { await t?.close(); });

describe('a session nobody completes', () => {
  it('expires six hours after creation: canceled on read, refused for writes, frozen from then on', async () => {
    const created = await ucp(t, 'POST', '/checkout-sessions', { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }], currency: 'USD' });
    expect(created.body.expires_at).toBe('2026-11-25T14:00:00.000Z');
    now = new Date('2026-11-25T13:59:59Z');
    expect((await ucp(t, 'GET', `/checkout-sessions/${created.body.id}`)).body.status).toBe('incomplete');

    now = new Date('2026-11-25T14:00:00Z');
    const update = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, { buyer: { email: 'late@example.com' } });
    expect(update).toMatchObject({ status: 409, body: { detail: "Cannot update checkout in state 'canceled'" } });
    const complete = await ucp(t, 'POST', `/checkout-sessions/${created.body.id}/complete`, { payment_data: SUCCESS_CARD });
    expect(complete).toMatchObject({ status: 409, body: { code: 'CHECKOUT_NOT_MODIFIABLE' } });
    const read = await ucp(t, 'GET', `/checkout-sessions/${created.body.id}`);
    expect(read.body).toMatchObject({ id: created.body.id, status: 'canceled' });
    expect(read.body).not.toHaveProperty('messages');

    now = new Date('2026-11-26T08:00:00Z');
    expect((await ucp(t, 'GET', `/checkout-sessions/${created.body.id}`)).body).toEqual(read.body);
  });
});
