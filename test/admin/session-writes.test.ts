import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSessions } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { addPerson, page, signIn } from './helpers.ts';

let t: TestApp;
let now = new Date('2026-11-20T10:00:00Z');
const HOUR = 3600_000;

beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
  await addPerson(t.database.db, 'anna@shop.dk', 'manager');
});
afterAll(async () => t.close());

/** The idle deadline of every session row of the person: it moves only when a request wrote the row. */
async function deadlines(): Promise<number[]> {
  const rows = await t.database.db.select({ expiresAt: staffSessions.expiresAt }).from(staffSessions).where(eq(staffSessions.staffId, (await staffId())));
  return rows.map((row) => row.expiresAt.getTime());
}

async function staffId(): Promise<string> {
  const rows = await t.database.db.select({ staffId: staffSessions.staffId }).from(staffSessions);
  const id = rows.find((row) => row.staffId !== null)?.staffId;
  if (!id) throw new Error('no signed-in session');
  return id;
}

const later = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

describe('console session writes', () => {
  it('writes the session row when it changes or once a minute, and still ends it after 8 idle hours', async () => {
    const { cookie } = await signIn(t.app, 'anna@shop.dk');
    if (!cookie) throw new Error('no cookie');
    expect((await page(t.app, cookie, '/admin/overview')).response.statusCode).toBe(200);
    const [first] = await deadlines();
    expect(first).toBe(now.getTime() + 8 * HOUR);

    // Within the minute: pages are read, and the row is not written again.
    later(20_000);
    await page(t.app, cookie, '/admin/overview');
    later(20_000);
    await page(t.app, cookie, '/admin/products');
    expect(await deadlines()).toEqual([first]);

    // A minute after the last write, the next request moves the deadline forward.
    later(30_000);
    await page(t.app, cookie, '/admin/overview');
    const [moved] = await deadlines();
    expect(moved).toBe(now.getTime() + 8 * HOUR);

    // Used now and then, it stays; left alone for 8 hours, it ends.
    later(7 * HOUR);
    expect((await page(t.app, cookie, '/admin/overview')).response.statusCode).toBe(200);
    later(8 * HOUR - 30_000);
    expect((await page(t.app, cookie, '/admin/overview')).response.statusCode).toBe(200);
    later(8 * HOUR + 1);
    const expired = await page(t.app, cookie, '/admin/overview');
    expect(expired.response.statusCode).toBe(303);
    expect(expired.response.headers.location).toBe('/admin/login');
  });

  it('writes nothing for a visitor who is not signed in', async () => {
    const before = await t.database.db.select().from(staffSessions);
    const anonymous = await t.app.inject({ method: 'GET', url: '/admin/login' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['set-cookie']).toBeUndefined();
    expect(await t.database.db.select().from(staffSessions)).toHaveLength(before.length);
  });
});
