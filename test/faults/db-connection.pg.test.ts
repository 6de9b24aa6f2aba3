import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp } from '../helpers/app.ts';
import type { CallResult, TestApp, TestAppOptions } from '../helpers/app.ts';
import { checkoutBody, createCart } from '../helpers/commerce.ts';
import { createProduct, master } from '../helpers/fixtures.ts';
import { expectProblem, send } from '../helpers/http.ts';
import { relayPostgres } from '../helpers/tcp-relay.ts';
import type { TcpRelay } from '../helpers/tcp-relay.ts';

/**
 * PostgreSQL going away under a running server (issue: reliability hardening). Each case answers 503
 * service_unavailable with Retry-After, the process lives, and the next request is served. These are
 * PostgreSQL's faults, so they run only on TEST_DATABASE_URL (CI's second pass).
 */
const url = process.env.TEST_DATABASE_URL;

let current: TestApp | undefined;
let relay: TcpRelay | undefined;
const side: pg.Client[] = [];
afterEach(async () => {
  for (const client of side.splice(0)) await client.end().catch(() => {});
  await relay?.close();
  relay = undefined;
  await current?.close();
  current = undefined;
});

async function sideConnection(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  side.push(client);
  return client;
}

async function appNamed(options: TestAppOptions = {}) {
  const applicationName = `butik-fault-${randomBytes(4).toString('hex')}`;
  current = await createTestApp({ ...options, db: { applicationName, ...options.db } });
  return { t: current, applicationName };
}

/** Locks the product's row from outside the app, the way a long transaction of another client would. */
async function holdRowLock(productId: string, schema: string) {
  const holder = await sideConnection();
  await holder.query(`set search_path = "${schema}", public`);
  await holder.query('begin');
  await holder.query('select id from products where id = $1 for update', [productId]);
  return holder;
}

const SchemaRow = z.object({ rows: z.tuple([z.object({ schema: z.string() })]) });

async function schemaOf(app: TestApp): Promise<string> {
  return SchemaRow.parse(await app.database.db.execute('select current_schema() as schema')).rows[0].schema;
}

/** The backends of this app that wait for a lock, once there are `count` of them. */
async function lockWaiters(applicationName: string, count: number): Promise<number[]> {
  const observer = await sideConnection();
  for (;;) {
    const result = await observer.query<{ pid: number }>(
      `select pid from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`, [applicationName]);
    if (result.rows.length >= count) return result.rows.map((row) => row.pid);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectUnavailable(response: CallResult) {
  expectProblem(response, 503, 'service_unavailable');
  expect(response.headers['retry-after']).toBe('5');
}

describe.skipIf(!url)('when PostgreSQL drops or refuses connections (TEST_DATABASE_URL only)', () => {
  it('answers 503 to the writes whose backends were terminated mid-transaction and keeps serving', async () => {
    const { t, applicationName } = await appNamed();
    const product = await createProduct(t, { stock: 5 });
    const cart = await createCart(t, { items: [{ slug: product.slug, quantity: 1 }] });
    const holder = await holdRowLock(product.id, await schemaOf(t));

    const update = t.call('products.update', { slug: product.slug, patch: { stock: 9 } }, master);
    const checkout = t.call('cart.checkout', checkoutBody(cart.cartId), master);
    const pids = await lockWaiters(applicationName, 2);
    const killer = await sideConnection();
    await killer.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);

    expectUnavailable(await update);
    expectUnavailable(await checkout);
    await holder.query('rollback');

    const after = await t.call('products.get', { slug: product.slug });
    expect(after.body.result.stock).toBe(5);
    const retried = await t.call('cart.checkout', checkoutBody(cart.cartId), master);
    expect(retried.status).toBe(200);
    expect(retried.body.result.status).toBe('pending_payment');
  });

  it('answers 503 when a statement outlives BUTIK_DB_STATEMENT_TIMEOUT_MS', async () => {
    const { t } = await appNamed({ db: { statementTimeoutMs: 300 } });
    const product = await createProduct(t);
    const holder = await holdRowLock(product.id, await schemaOf(t));

    expectUnavailable(await t.call('products.update', { slug: product.slug, patch: { stock: 1 } }, master));
    await holder.query('rollback');
    const retried = await t.call('products.update', { slug: product.slug, patch: { stock: 1 } }, master);
    expect(retried.body.result).toEqual({ id: product.id, slug: product.slug });
  });

  it('answers 503 when no pooled connection frees up within BUTIK_DB_ACQUIRE_TIMEOUT_MS', async () => {
    const { t, applicationName } = await appNamed({ db: { poolSize: 1, acquireTimeoutMs: 200 } });
    const product = await createProduct(t);
    const holder = await holdRowLock(product.id, await schemaOf(t));
    const blocked = t.call('products.update', { slug: product.slug, patch: { stock: 2 } }, master);
    await lockWaiters(applicationName, 1);

    expectUnavailable(await t.call('products.get', { slug: product.slug }));
    await holder.query('rollback');
    expect((await blocked).status).toBe(200);
  });

  it('answers 503 and a prompt /readyz 503 while the database hangs, and recovers when it answers again', async () => {
    const relayed = await relayPostgres(url ?? '');
    relay = relayed.relay;
    const { t } = await appNamed({ db: { via: relayed.url, statementTimeoutMs: 300, acquireTimeoutMs: 300 } });
    const product = await createProduct(t);

    relay.freeze();
    expectUnavailable(await t.call('products.get', { slug: product.slug }));
    const ready = await send(t, { method: 'GET', url: '/readyz' });
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ ok: false, database: 'unreachable' });

    relay.thaw();
    await expect.poll(async () => (await t.call('products.get', { slug: product.slug })).status, { timeout: 10_000 }).toBe(200);
  });

  it('answers 503 while the database refuses connections', async () => {
    const relayed = await relayPostgres(url ?? '');
    relay = relayed.relay;
    const { t } = await appNamed({ db: { via: relayed.url, acquireTimeoutMs: 1_000 } });
    const product = await createProduct(t);

    await relay.close();
    expectUnavailable(await t.call('products.get', { slug: product.slug }));
    expectUnavailable(await t.call('products.update', { slug: product.slug, patch: { stock: 3 } }, master));
    const ready = await send(t, { method: 'GET', url: '/readyz' });
    expect(ready.status).toBe(503);
  });
});
