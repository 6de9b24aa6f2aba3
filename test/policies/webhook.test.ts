import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/access/api-keys.ts';
import { createTestApp, MASTER_KEY } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct } from '../helpers/fixtures.ts';

const SECRET = 'webhook-secret-0123456789abcdefghijklmnop';
type Delivery = { signature: string; body: string };
const deliveries: Delivery[] = [];
let answers: number[] = [];
let arrived: () => void = () => {};
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => { body += chunk.toString(); });
  request.on('end', () => {
    deliveries.push({ signature: String(request.headers['butik-signature']), body });
    response.statusCode = answers.shift() ?? 204;
    response.end();
    arrived();
  });
});

let t: TestApp;
let agent = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  t = await createTestApp({ env: { BUTIK_APPROVALS_WEBHOOK: `http://127.0.0.1:${port}/hook`, BUTIK_APPROVALS_WEBHOOK_SECRET: SECRET } });
  agent = (await createKey(t.database.db, { name: 'hooked-agent', scopes: ['products:write'] }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() })).key;
  const set = await t.app.inject({
    method: 'POST', url: '/api/v1/commands/policies.set', headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    payload: { document: { rules: [{ kind: 'tool', tool: 'products.delete' }] } },
  });
  if (set.statusCode !== 200) throw new Error(set.body);
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

function deliveriesReach(count: number): Promise<void> {
  return new Promise((resolve) => {
    arrived = () => { if (deliveries.length >= count) resolve(); };
    arrived();
  });
}

describe('the approvals webhook', () => {
  it('POSTs each new pending approval once, signed, and retries a delivery the endpoint refused', async () => {
    answers = [500];
    const product = await createProduct(t);
    const send = () => t.call('products.delete', { slug: product.slug, confirm: true }, { key: agent, headers: { 'idempotency-key': 'hook-1' } });
    const held = await send();
    expect(held.status).toBe(202);
    // The same key again answers the same approval and notifies nobody a second time.
    expect((await send()).body.approval.id).toBe(held.body.approval.id);
    await deliveriesReach(2);
    expect(deliveries).toHaveLength(2);
    for (const delivery of deliveries) {
      const [stamp, mac] = delivery.signature.split(',');
      const timestamp = stamp!.replace('t=', '');
      expect(mac).toBe(`v1=${createHmac('sha256', SECRET).update(`${timestamp}.${delivery.body}`).digest('hex')}`);
      expect(JSON.parse(delivery.body)).toEqual({
        type: 'approval.pending',
        approval: {
          id: held.body.approval.id, url: held.body.approval.url, expiresAt: held.body.approval.expiresAt,
          reason: held.body.approval.reason, tool: 'products.delete', agent: 'hooked-agent',
        },
      });
    }
  }, 30_000);
});
