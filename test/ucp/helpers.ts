import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { parseImportArgs, runImport } from '../../src/import/command.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp, TestAppOptions } from '../helpers/app.ts';

export const FLOWER_SHOP = join(import.meta.dirname, '..', 'fixtures', 'ucp-flower-shop');
export const PROFILE = 'https://platform.example/profile';
/** The checkout, order and MCP suites speak 2026-01-11; versions.test.ts covers the later versions' shapes. */
export const AGENT = `profile="${PROFILE}";version="2026-01-11"`;

/** A test-mode app holding a fresh import of the samples' flower shop (USD). */
export async function flowerShop(options: TestAppOptions = {}): Promise<TestApp> {
  const t = await createTestApp({ ...options, env: { BUTIK_UCP_MODE: 'test', ...options.env } });
  const imported = await runImport(t.database.db, parseImportArgs([FLOWER_SHOP, '--currency', 'USD']), new Date());
  if (imported.exitCode !== 0) throw new Error(imported.stderr.join('\n'));
  return t;
}

export type UcpResponse = { status: number; headers: Record<string, unknown>; body: any };

/** One UCP request through fastify.inject, with UCP-Agent unless `headers` replaces it. */
export async function ucp(t: TestApp, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<UcpResponse> {
  const response = await t.app.inject({
    method,
    url,
    headers: { 'ucp-agent': AGENT, 'request-id': randomUUID(), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.statusCode, headers: response.headers, body: response.body ? JSON.parse(response.body) : undefined };
}

export const ADDRESS = {
  full_name: 'Jane Doe',
  street_address: '123 Main St',
  address_locality: 'Springfield',
  address_region: 'IL',
  postal_code: '62701',
  address_country: 'US',
};

export const SUCCESS_CARD = {
  id: 'instr_my_card',
  handler_id: 'mock_payment_handler',
  type: 'card',
  brand: 'Visa',
  last_digits: '4242',
  credential: { type: 'token', token: 'success_token' },
};

/** A session with the given lines, shipping to ADDRESS with its first option selected: ready to complete. */
export async function readySession(t: TestApp, lineItems: Array<{ id: string; quantity: number }>, extra: Record<string, unknown> = {}) {
  const created = await ucp(t, 'POST', '/checkout-sessions', {
    line_items: lineItems.map((line) => ({ item: { id: line.id }, quantity: line.quantity })),
    currency: 'USD',
    payment: {},
    fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest_home', ...ADDRESS }], selected_destination_id: 'dest_home' }] },
    ...extra,
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const group = created.body.fulfillment.methods[0].groups[0];
  const updated = await ucp(t, 'PUT', `/checkout-sessions/${created.body.id}`, {
    fulfillment: { methods: [{ groups: [{ id: group.id, selected_option_id: group.options[0].id }] }] },
  });
  if (updated.status !== 200 || updated.body.status !== 'ready_for_complete') throw new Error(`select: ${updated.status} ${JSON.stringify(updated.body)}`);
  return updated.body;
}
