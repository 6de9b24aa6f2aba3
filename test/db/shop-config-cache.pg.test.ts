import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import type { Database } from '../../src/db/client.ts';
import { isFeatureEnabled } from '../../src/shop/features.ts';
import { readSettings, writeSetting } from '../../src/shop/settings.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';

/**
 * The settings and feature flags every request reads are kept in memory; these tests show that no reader ever
 * gets a value older than the last commit it could know of: its own transaction's write, a tool call, a revert,
 * a statement no tool sent, or a second instance's write on the same PostgreSQL.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** A statement no tool sent, as psql would: the triggers must catch it. */
const shippingByHand = (db: Database['db'], shippingDkk: number) => db.execute(sql`insert into settings (key, value) values
  ('shippingDkk', ${JSON.stringify({ value: shippingDkk })}::jsonb) on conflict (key) do update set value = excluded.value`);

describe('the settings and feature flag cache of one instance', () => {
  it('lets a transaction that writes a setting read its own write, and everyone else the old value until it commits', async () => {
    const { db } = t.database;
    await readSettings(db);
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    let inside: number | undefined;
    const writing = db.transaction(async (tx) => {
      await writeSetting(tx, { key: 'shippingDkk', value: 3100, now: new Date() });
      inside = (await readSettings(tx)).shippingDkk;
      await held;
    });
    await expect.poll(() => inside).toBe(3100);
    expect((await readSettings(db)).shippingDkk).toBe(4900);
    release();
    await writing;
    expect((await readSettings(db)).shippingDkk).toBe(3100);
  });

  it('shows a settings.update and its audit.revert on the next read', async () => {
    await readSettings(t.database.db);
    const updated = await t.call('settings.update', { shippingDkk: 2900 }, master);
    expect(updated.body.result.shippingDkk).toBe(2900);
    expect((await readSettings(t.database.db)).shippingDkk).toBe(2900);
    const entry = (await t.call('audit.list', { tool: 'settings.update', targetId: 'shippingDkk', limit: 1 }, master)).body.result[0];
    expect((await t.call('audit.revert', { entryId: entry.id }, master)).status).toBe(200);
    expect((await readSettings(t.database.db)).shippingDkk).toBe(3100);
    expect((await t.call('settings.get', {}, master)).body.result.shippingDkk).toBe(3100);
  });

  it('switches checkout off for the very next order when the flag is set, and on again when it is reverted', async () => {
    expect(await isFeatureEnabled(t.database.db, 'checkout')).toBe(true);
    await t.call('features.set', { key: 'checkout', enabled: false }, master);
    const refused = await t.call('cart.checkout', { cartId: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81', email: 'a@example.dk',
      shipping: { name: 'A', address: 'Vej 1', zip: '8000', city: 'Aarhus' } }, master);
    expect(refused.body.code).toBe('feature_disabled');
    const entry = (await t.call('audit.list', { tool: 'features.set', limit: 1 }, master)).body.result[0];
    await t.call('audit.revert', { entryId: entry.id }, master);
    expect(await isFeatureEnabled(t.database.db, 'checkout')).toBe(true);
  });

  it('drops what it holds when a statement no tool sent changes a setting', async () => {
    const { db } = t.database;
    await readSettings(db);
    await shippingByHand(db, 1900);
    await expect.poll(async () => (await readSettings(db)).shippingDkk).toBe(1900);
  });
});

describe.runIf(TEST_DATABASE_URL)('the settings cache of two instances on one PostgreSQL', () => {
  let other: Database;
  beforeAll(async () => {
    const [row] = await t.database.db.select({ name: sql<string>`current_schema()` }).from(sql`(select 1) as one`);
    const schema = row?.name;
    other = await openDatabase({ url: TEST_DATABASE_URL, schemaName: schema, poolSize: 2, applicationName: 'butik other' });
    await other.migrate();
  });
  afterAll(async () => { await other?.close(); });

  it('shows the other instance a change made through one, and a revert of it', async () => {
    await expect.poll(async () => (await readSettings(other.db)).shippingDkk).toBe(1900);
    await t.call('settings.update', { shippingDkk: 5900 }, master);
    await expect.poll(async () => (await readSettings(other.db)).shippingDkk).toBe(5900);
    const entry = (await t.call('audit.list', { tool: 'settings.update', targetId: 'shippingDkk', limit: 1 }, master)).body.result[0];
    await t.call('audit.revert', { entryId: entry.id }, master);
    await expect.poll(async () => (await readSettings(other.db)).shippingDkk).toBe(1900);
  });

  it('reads from the database once its change feed is cut, so a change made meanwhile is seen', async () => {
    await readSettings(other.db);
    // Waits until the feed's backend is gone, having told the instance why.
    await t.database.db.execute(sql`select pg_terminate_backend(pid, 5000) from pg_stat_activity
      where application_name = 'butik other config feed'`);
    // One round trip on the instance: the news on its feed's socket came first, so it has been read by then.
    await other.ping();
    await shippingByHand(t.database.db, 6900);
    expect((await readSettings(other.db)).shippingDkk).toBe(6900);
  });
});
