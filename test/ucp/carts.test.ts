import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { ADDRESS, flowerShop, PROFILE, SUCCESS_CARD, ucp } from './helpers.ts';
import { expectValid } from './schemas-2026-04-08.ts';

/** UCP 2026-04-08 carts over Butik's carts, REST and MCP, and their conversion to a checkout session. */
let t: TestApp;
let client: Client;
beforeAll(async () => {
  t = await flowerShop();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  client = new Client({ name: 'ucp-cart-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/ucp/mcp', address)));
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const CART = 'schemas/shopping/cart.json';
const ERROR_RESPONSE = 'schemas/shopping/types/error_response.json';

const lines = (...items: Array<[string, number]>) => items.map(([id, quantity]) => ({ item: { id }, quantity }));

async function createCart(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await ucp(t, 'POST', '/carts', body, headers);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expectValid(CART, response.body);
  return response.body;
}

function expectNotFound(response: { status: number; body: any }) {
  expect(response.status).toBe(200);
  expectValid(ERROR_RESPONSE, response.body);
  expect(response.body).toMatchObject({ ucp: { status: 'error' }, messages: [{ type: 'error', code: 'not_found', severity: 'unrecoverable' }] });
}

describe('UCP carts over REST', () => {
  it('creates a cart priced from the catalog, whatever the platform sent, with estimated totals', async () => {
    const cart = await createCart({
      line_items: [{ item: { id: 'bouquet_roses', title: 'Cheap', price: 1 }, quantity: 2 }, ...lines(['pot_ceramic', 1])],
      context: { address_country: 'US' },
      buyer: { email: 'jane@example.com' },
    });
    expect(cart).toMatchObject({
      ucp: { version: '2026-04-08', capabilities: { 'dev.ucp.shopping.cart': [{ version: '2026-04-08' }] } },
      currency: 'USD',
      line_items: [
        { item: { id: 'bouquet_roses', title: 'Bouquet of Red Roses', price: 3500 }, quantity: 2, totals: [{ type: 'subtotal', amount: 7000 }, { type: 'total', amount: 7000 }] },
        { item: { id: 'pot_ceramic', price: 1500 }, quantity: 1 },
      ],
      totals: [{ type: 'subtotal', amount: 8500 }, { type: 'total', amount: 8500 }],
      context: { address_country: 'US' },
      buyer: { email: 'jane@example.com' },
    });
    expect(Date.parse(cart.expires_at)).toBeGreaterThan(Date.now());
    const read = await ucp(t, 'GET', `/carts/${cart.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(cart);
    // The same Butik cart, as cart.get shows it.
    const butik = await t.call('cart.get', { cartId: cart.id }, master);
    expect(butik.status).toBe(200);
    expect(butik.body.result).toMatchObject({ subtotalDkk: 8500, items: [{ productName: 'Bouquet of Red Roses', quantity: 2 }, { productName: 'Ceramic Pot', quantity: 1 }] });
  });

  it('replaces the whole cart on update', async () => {
    const cart = await createCart({ line_items: lines(['bouquet_roses', 1], ['pot_ceramic', 1]), context: { address_country: 'US' } });
    const updated = await ucp(t, 'PUT', `/carts/${cart.id}`, { id: cart.id, line_items: lines(['bouquet_tulips', 3]) });
    expect(updated.status).toBe(200);
    expectValid(CART, updated.body);
    expect(updated.body.line_items.map((line: any) => [line.item.id, line.quantity])).toEqual([['bouquet_tulips', 3]]);
    expect(updated.body.totals).toEqual([
      { type: 'subtotal', amount: 9000 }, { type: 'total', amount: 9000, display_text: 'Estimated total (shipping is priced at checkout)' },
    ]);
    expect(updated.body.context).toBeUndefined();
  });

  it('refuses an unknown item as a business outcome and a malformed body as 400', async () => {
    const unknown = await ucp(t, 'POST', '/carts', { line_items: lines(['bouquet_roses', 1], ['no_such_flower', 1]) });
    expect(unknown.status).toBe(200);
    expectValid(ERROR_RESPONSE, unknown.body);
    expect(unknown.body.messages).toEqual([
      { type: 'error', code: 'not_found', content: 'Product no_such_flower not found', severity: 'recoverable', path: '$.line_items[1]' },
    ]);
    const broken = await ucp(t, 'POST', '/carts', { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 0 }] });
    expect(broken.status).toBe(400);
    expectValid(ERROR_RESPONSE, broken.body);
    const twice = await ucp(t, 'POST', '/carts', { line_items: lines(['bouquet_roses', 1], ['bouquet_roses', 2]) });
    expect(twice.status).toBe(400);
  });

  it('answers an unknown cart, and a canceled one, with not_found', async () => {
    expectNotFound(await ucp(t, 'GET', '/carts/no-such-cart'));
    expectNotFound(await ucp(t, 'PUT', '/carts/no-such-cart', { line_items: [] }));
    const cart = await createCart({ line_items: lines(['bouquet_roses', 1]) });
    const canceled = await ucp(t, 'POST', `/carts/${cart.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toEqual(cart);
    expectNotFound(await ucp(t, 'GET', `/carts/${cart.id}`));
    expectNotFound(await ucp(t, 'POST', `/carts/${cart.id}/cancel`));
  });

  it('runs a create once per Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'cart-create-1' };
    const first = await createCart({ line_items: lines(['pot_ceramic', 1]) }, headers);
    const again = await ucp(t, 'POST', '/carts', { line_items: lines(['pot_ceramic', 1]) }, headers);
    expect(again.body.id).toBe(first.id);
    const other = await ucp(t, 'POST', '/carts', { line_items: lines(['pot_ceramic', 2]) }, headers);
    expect(other.status).toBe(409);
    expectValid(ERROR_RESPONSE, other.body);
  });
});

describe('converting a cart to a checkout', () => {
  it('starts the checkout from the cart, answers the same session while it is open, and clears the cart once it completes', async () => {
    const cart = await createCart({ line_items: lines(['bouquet_roses', 2]), buyer: { email: 'jane@example.com' } });
    const created = await ucp(t, 'POST', '/checkout-sessions', {
      cart_id: cart.id, line_items: lines(['pot_ceramic', 9]), payment: {},
      fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest_home', ...ADDRESS }], selected_destination_id: 'dest_home' }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.line_items.map((line: any) => [line.item.id, line.quantity])).toEqual([['bouquet_roses', 2]]);
    expect(created.body.buyer).toMatchObject({ email: 'jane@example.com' });
    const again = await ucp(t, 'POST', '/checkout-sessions', { cart_id: cart.id, line_items: [] });
    expect(again.body.id).toBe(created.body.id);

    const blocked = await ucp(t, 'PUT', `/carts/${cart.id}`, { line_items: lines(['pot_ceramic', 1]) });
    expect(blocked.status).toBe(200);
    expect(blocked.body.messages[0]).toMatchObject({ code: 'cart_in_checkout', severity: 'recoverable' });

    // A change made in the checkout is the cart's too: they share the Butik cart.
    const changed = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, { line_items: lines(['bouquet_roses', 3]) });
    expect(changed.status).toBe(200);
    expect((await ucp(t, 'GET', `/carts/${cart.id}`)).body.line_items.map((line: any) => line.quantity)).toEqual([3]);

    const group = changed.body.fulfillment.methods[0].groups[0];
    const ready = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, {
      fulfillment: { methods: [{ groups: [{ id: group.id, selected_option_id: group.options[0].id }] }] },
    });
    expect(ready.body.status).toBe('ready_for_complete');
    const completed = await ucp(t, 'POST', `/checkout-sessions/${created.body.id}/complete`, { payment_data: { ...SUCCESS_CARD, billing_address: ADDRESS } }, { 'idempotency-key': 'cart-complete-1' });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.status).toBe('completed');
    expectNotFound(await ucp(t, 'GET', `/carts/${cart.id}`));
  });

  it('refuses an unknown cart and an empty one', async () => {
    const unknown = await ucp(t, 'POST', '/checkout-sessions', { cart_id: 'no-such-cart' });
    expect(unknown.status).toBe(404);
    const empty = await createCart({ line_items: [] });
    const refused = await ucp(t, 'POST', '/checkout-sessions', { cart_id: empty.id });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('is empty');
  });
});

describe('carts over MCP at /ucp/mcp', () => {
  const meta = { 'ucp-agent': { profile: PROFILE } };

  it('creates, reads, updates and cancels a cart with the cart-mcp tools', async () => {
    const created = await client.callTool({ name: 'create_cart', arguments: { meta, cart: { line_items: lines(['bouquet_sunflowers', 2]) } } });
    const cart = created.structuredContent as any;
    expectValid(CART, cart);
    expect(cart.totals[0]).toEqual({ type: 'subtotal', amount: 5000 });
    const read = await client.callTool({ name: 'get_cart', arguments: { meta, id: cart.id } });
    expect(read.structuredContent).toEqual(cart);
    const updated = await client.callTool({ name: 'update_cart', arguments: { meta, id: cart.id, cart: { line_items: lines(['bouquet_sunflowers', 1]) } } });
    expect((updated.structuredContent as any).totals[0]).toEqual({ type: 'subtotal', amount: 2500 });
    const canceled = await client.callTool({ name: 'cancel_cart', arguments: { meta: { ...meta, 'idempotency-key': 'mcp-cancel-1' }, id: cart.id } });
    expect((canceled.structuredContent as any).id).toBe(cart.id);
    const gone = await client.callTool({ name: 'get_cart', arguments: { meta, id: cart.id } });
    expect(gone.structuredContent).toMatchObject({ ucp: { status: 'error' }, messages: [{ code: 'not_found' }] });
  });
});
