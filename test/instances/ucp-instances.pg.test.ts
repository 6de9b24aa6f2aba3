import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance } from '../helpers/instances.ts';
import type { Instance } from '../helpers/instances.ts';
import { simulatedPlatform } from '../ucp/platform.ts';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = `simulation-${randomBytes(12).toString('hex')}`;

describe.runIf(DATABASE_URL)('UCP on two instances over one PostgreSQL', () => {
  const dbName = `butik_ucp_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'butik-ucp-instances-'));
  const instances: Instance[] = [];
  let admin: pg.Client;
  let platform: Awaited<ReturnType<typeof simulatedPlatform>>;
  let shopUrl = '';

  const call = async (instance: Instance, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${instance.url}${path}`, {
      method,
      headers: { 'ucp-agent': `profile="${platform.profileUrl}"`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() as any };
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`create database "${dbName}"`);
    const url = new URL(DATABASE_URL ?? '');
    url.pathname = `/${dbName}`;
    shopUrl = url.toString();
    const env = {
      PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', DATABASE_URL: shopUrl, BUTIK_DATA_DIR: dataDir,
      BUTIK_SEED: 'none', LOG_LEVEL: 'info', BUTIK_UCP_MODE: 'test', BUTIK_UCP_SIMULATION_SECRET: SECRET,
      BUTIK_MASTER_KEY: `ucp-master-${randomBytes(24).toString('hex')}`,
    };
    const imported = spawnSync(process.execPath, ['bin/butik.js', 'import', 'test/fixtures/ucp-flower-shop', '--currency', 'USD'], { cwd: ROOT, env, encoding: 'utf8' });
    if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`);
    instances.push(...await Promise.all([startInstance('a', env), startInstance('b', env)]));
    const [a] = instances;
    platform = await simulatedPlatform({ shopKeys: async () => (await (await fetch(`${a?.url}/.well-known/ucp`)).json()).signing_keys });
  }, 90_000);

  afterAll(async () => {
    try {
      await platform?.stop();
      for (const instance of instances) if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
      await Promise.all(instances.map((instance) => instance.exited));
    } finally {
      await admin?.query(`drop database if exists "${dbName}" with (force)`);
      await admin?.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  async function until<T>(probe: () => T | undefined, ms = 15_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('publish the same signing key; a session made on one is completed on the other; each event is delivered once', async () => {
    const [a, b] = instances;
    if (!a || !b) throw new Error('instances missing');
    const keysA = (await call(a, 'GET', '/.well-known/ucp')).body.signing_keys;
    const keysB = (await call(b, 'GET', '/.well-known/ucp')).body.signing_keys;
    expect(keysB).toEqual(keysA);

    const created = await call(a, 'POST', '/checkout-sessions', {
      line_items: [{ item: { id: 'bouquet_tulips' }, quantity: 1 }], currency: 'USD', payment: {},
      fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'home', street_address: '1 Elm St', address_locality: 'Boston', postal_code: '02101', address_country: 'US' }], selected_destination_id: 'home' }] },
    });
    expect(created.status).toBe(201);
    const group = created.body.fulfillment.methods[0].groups[0];
    const ready = await call(b, 'PUT', `/checkout-sessions/${created.body.id}`, { fulfillment: { methods: [{ groups: [{ id: group.id, selected_option_id: 'exp-ship-us' }] }] } });
    expect(ready.body.status).toBe('ready_for_complete');
    const completed = await call(a, 'POST', `/checkout-sessions/${created.body.id}/complete`, {
      payment_data: { id: 'c', handler_id: 'mock_payment_handler', type: 'card', brand: 'Visa', last_digits: '4242', credential: { type: 'token', token: 'success_token' } },
    });
    expect(completed.status).toBe(200);
    const orderId = completed.body.order.id;
    expect((await call(b, 'POST', `/testing/simulate-shipping/${orderId}`, undefined, { 'simulation-secret': SECRET })).body).toEqual({ status: 'shipped' });

    await until(() => platform.received.find((event) => event.body.id === orderId && event.body.event_type === 'order_shipped'));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const events = platform.received.filter((event) => event.body.id === orderId);
    expect(events.map((event) => event.body.event_type).sort()).toEqual(['order_placed', 'order_shipped']);
    expect(events.every((event) => event.verified)).toBe(true);
    expect((await call(b, 'GET', `/orders/${orderId}`)).body.fulfillment.events).toHaveLength(1);
  });

  it('never oversell across instances: 20 completions for 8 units', async () => {
    const [a, b] = instances;
    if (!a || !b) throw new Error('instances missing');
    const shop = new pg.Client({ connectionString: shopUrl });
    await shop.connect();
    try {
      await shop.query(`update products set stock = 8 where sku = 'orchid_white'`);
    } finally {
      await shop.end();
    }
    const sessions = [];
    for (let i = 0; i < 20; i += 1) {
      const created = await call(i % 2 === 0 ? a : b, 'POST', '/checkout-sessions', {
        line_items: [{ item: { id: 'orchid_white' }, quantity: 1 }], currency: 'USD',
        fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'h', street_address: '1 Elm St', address_locality: 'Boston', postal_code: '02101', address_country: 'US' }], selected_destination_id: 'h', groups: [{ selected_option_id: 'std-ship' }] }] },
      });
      expect(created.body.status).toBe('ready_for_complete');
      sessions.push(created.body.id as string);
    }
    const answers = await Promise.all(sessions.map((id, i) => call(i % 2 === 0 ? b : a, 'POST', `/checkout-sessions/${id}/complete`, {
      payment_data: { id: 'c', handler_id: 'mock_payment_handler', type: 'card', brand: 'Visa', last_digits: '4242', credential: { type: 'token', token: 'success_token' } },
    })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(8);
    expect(answers.filter((answer) => answer.status !== 200).every((answer) => answer.status === 409 && answer.body.code === 'OUT_OF_STOCK')).toBe(true);
  });
});
