import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { ADDRESS, flowerShop, PROFILE, readySession, SUCCESS_CARD } from './helpers.ts';

let t: TestApp;
let client: Client;
/** This suite speaks 2026-01-11 through the request's _meta; versions.test.ts covers 2026-04-08's arguments.meta. */
const meta = { ucp: { profile: PROFILE, version: '2026-01-11' } };

beforeAll(async () => {
  t = await flowerShop();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  client = new Client({ name: 'ucp-platform-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/ucp/mcp', address)));
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

/** A tools/call whose UCP failure comes back as a JSON-RPC error with the UCP error in `data`. */
async function failure(name: string, args: Record<string, unknown>, callMeta: Record<string, unknown> = meta) {
  try {
    await client.callTool({ name, arguments: args, _meta: callMeta });
  } catch (error) {
    return error as { code: number; message: string; data: any };
  }
  throw new Error(`${name} succeeded`);
}

describe('UCP over MCP at /ucp/mcp', () => {
  it('lists the five checkout tools of checkout-mcp.md, each with annotations and an output schema', async () => {
    const listed = (await client.listTools()).tools;
    const checkoutTools = ['create_checkout', 'get_checkout', 'update_checkout', 'complete_checkout', 'cancel_checkout'];
    expect(listed.map((tool) => tool.name).slice(0, 5)).toEqual(checkoutTools);
    const tools = listed.filter((tool) => checkoutTools.includes(tool.name));
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(hints.get_checkout).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(hints.complete_checkout).toMatchObject({ readOnlyHint: false, idempotentHint: false, openWorldHint: true });
    expect(hints.cancel_checkout).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    for (const tool of tools) {
      expect(tool.annotations?.title, tool.name).toEqual(expect.any(String));
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object', required: ['ucp'], properties: { id: {}, status: {}, line_items: {} } });
    }
  });

  it('runs a whole checkout: create, update the fulfillment, complete; the same order as over REST', async () => {
    const created = await client.callTool({
      name: 'create_checkout',
      arguments: {
        checkout: {
          line_items: [{ item: { id: 'bouquet_tulips' }, quantity: 1 }], currency: 'USD', payment: {},
          fulfillment: { methods: [{ type: 'shipping', destinations: [ADDRESS] }] },
        },
        idempotency_key: 'mcp-create-1',
      },
      _meta: meta,
    });
    const checkout = created.structuredContent as any;
    expect(checkout).toMatchObject({ status: 'incomplete', currency: 'USD', line_items: [{ item: { id: 'bouquet_tulips', price: 3000 } }] });
    const destination = checkout.fulfillment.methods[0].destinations[0].id;

    const addressed = (await client.callTool({
      name: 'update_checkout',
      arguments: { id: checkout.id, fulfillment: { methods: [{ selected_destination_id: destination }] } },
      _meta: meta,
    })).structuredContent as any;
    const group = addressed.fulfillment.methods[0].groups[0];
    const ready = (await client.callTool({
      name: 'update_checkout',
      arguments: { id: checkout.id, checkout: { fulfillment: { methods: [{ groups: [{ id: group.id, selected_option_id: 'std-ship' }] }] } } },
      _meta: meta,
    })).structuredContent as any;
    expect(ready.status).toBe('ready_for_complete');

    const completed = await client.callTool({
      name: 'complete_checkout',
      arguments: { id: checkout.id, payment: { selected_instrument_id: SUCCESS_CARD.id, instruments: [SUCCESS_CARD] }, idempotency_key: 'mcp-complete-1' },
      _meta: meta,
    });
    expect(completed.structuredContent).toMatchObject({ status: 'completed', order: { id: expect.any(String) } });
    const read = await client.callTool({ name: 'get_checkout', arguments: { id: checkout.id }, _meta: meta });
    expect(read.structuredContent).toEqual(completed.structuredContent);
  });

  it('answers UCP failures as JSON-RPC errors carrying the UCP error, and requires the platform profile', async () => {
    const unknown = await failure('get_checkout', { id: 'nope' });
    expect(unknown.code).toBe(-32602);
    expect(unknown.data).toEqual({
      status: 'requires_escalation',
      messages: [{ type: 'error', code: 'resource_not_found', content: 'Checkout session not found', severity: 'recoverable' }],
      code: 'RESOURCE_NOT_FOUND',
      detail: 'Checkout session not found',
    });
    const anonymous = await failure('get_checkout', { id: 'nope' }, {});
    expect(anonymous.data.detail).toMatch(/meta\["ucp-agent"\]\.profile/);
    const stock = await failure('create_checkout', { line_items: [{ item: { id: 'gardenias' }, quantity: 1 }], currency: 'USD' });
    expect(stock.data.detail).toBe('Insufficient stock for item gardenias');
    // Refused in the shop's declared version, 2026-04-08: JSON-RPC -32001 with its code and content.
    const newer = await failure('get_checkout', { id: 'x' }, { ucp: { profile: PROFILE, version: '2030-01-01' } });
    expect(newer.code).toBe(-32001);
    expect(newer.data).toEqual({ code: 'version_unsupported', content: expect.stringMatching(/^Version 2030-01-01 is not supported/), continue_url: 'http://butik.test/' });
  });

  // -32603 is what a host reads as "the server broke" and retries; none of these is a server fault.
  it('answers a declined payment with -32000 and the UCP error, not an internal error; the session stays open', async () => {
    const session = await readySession(t, [{ id: 'pot_ceramic', quantity: 1 }]);
    const declinedCard = { ...SUCCESS_CARD, credential: { type: 'token', token: 'fail_token' } };
    const declined = await failure('complete_checkout', { id: session.id, payment_data: declinedCard, idempotency_key: `decline-${session.id}` });
    expect(declined.code).toBe(-32000);
    expect(declined.message).toBe('Payment Failed: Insufficient Funds');
    expect(declined.data).toMatchObject({ code: 'PAYMENT_FAILED', messages: [{ code: 'payment_failed', severity: 'requires_buyer_input' }] });
    const read = await client.callTool({ name: 'get_checkout', arguments: { id: session.id }, _meta: meta });
    expect(read.structuredContent).toMatchObject({ status: 'ready_for_complete' });
  });

  it('answers a write to a completed session with -32000 CHECKOUT_NOT_MODIFIABLE', async () => {
    const session = await readySession(t, [{ id: 'pot_ceramic', quantity: 1 }]);
    const completed = await client.callTool({
      name: 'complete_checkout', arguments: { id: session.id, payment_data: SUCCESS_CARD, idempotency_key: `done-${session.id}` }, _meta: meta,
    });
    expect(completed.structuredContent).toMatchObject({ status: 'completed' });
    const update = await failure('update_checkout', { id: session.id, checkout: { buyer: { email: 'late@example.com' } } });
    expect(update.code).toBe(-32000);
    expect(update.data).toMatchObject({ code: 'CHECKOUT_NOT_MODIFIABLE', detail: "Cannot update checkout in state 'completed'" });
    const cancel = await failure('cancel_checkout', { id: session.id, idempotency_key: `cancel-${session.id}` });
    expect({ code: cancel.code, ucp: cancel.data.code }).toEqual({ code: -32000, ucp: 'CHECKOUT_NOT_MODIFIABLE' });
  });

  it('answers an idempotency key reused with other arguments with -32000 IDEMPOTENCY_CONFLICT', async () => {
    const key = `conflict-${Date.now()}`;
    const line = (quantity: number) => ({ line_items: [{ item: { id: 'bouquet_tulips' }, quantity }], currency: 'USD', payment: {} });
    const first = await client.callTool({ name: 'create_checkout', arguments: { checkout: line(1), idempotency_key: key }, _meta: meta });
    expect(first.structuredContent).toMatchObject({ status: 'incomplete' });
    const conflict = await failure('create_checkout', { checkout: line(2), idempotency_key: key });
    expect(conflict.code).toBe(-32000);
    expect(conflict.data).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', messages: [{ code: 'idempotency_conflict' }] });
  });
});
