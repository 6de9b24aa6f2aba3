import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createDiscount, uniqueCode } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const RECORD_KEYS = ['active', 'code', 'createdAt', 'id', 'remainingUses', 'type', 'usageCount', 'usageLimit', 'validUntil', 'value'];

async function create(body: Record<string, unknown>) {
  return t.call('discounts.create', { code: uniqueCode(), ...body }, master);
}

describe('discounts.create', () => {
  it('stores the trimmed code uppercase and answers exactly {id, code}', async () => {
    const response = await t.call('discounts.create', { code: '  sommer-kode  ', type: 'fixed', value: 5000 }, master);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.result).sort()).toEqual(['code', 'id']);
    expect(response.body.result.code).toBe('SOMMER-KODE');
    const got = await t.call('discounts.get', { code: 'Sommer-Kode' }, master);
    expect(got.body.result).toMatchObject({
      id: response.body.result.id, code: 'SOMMER-KODE', type: 'fixed', value: 5000, validUntil: null, usageLimit: null,
      usageCount: 0, active: true, remainingUses: null,
    });
  });

  it.each([
    ['percent', 0, 400], ['percent', 1, 200], ['percent', 100, 200], ['percent', 101, 400],
    ['fixed', 0, 400], ['fixed', 1, 200], ['fixed', 1_000_000, 200], ['fixed', -5, 400],
  ])('answers a %s value of %i with %i', async (type, value, status) => {
    const response = await create({ type, value });
    expect(response.status).toBe(status);
    if (status === 400) expect(response.body.code).toBe('validation_failed');
  });

  it('rejects a code shorter than three characters, also after trimming, and accepts three', async () => {
    for (const code of ['AB', '  ab  ']) {
      const response = await t.call('discounts.create', { code, type: 'percent', value: 10 }, master);
      expect(response.status).toBe(400);
      expect(response.body.errors[0].path).toBe('code');
    }
    expect((await t.call('discounts.create', { code: 'x1z', type: 'percent', value: 10 }, master)).body.result.code).toBe('X1Z');
  });

  it('rejects a code that exists in another case with 409 already_exists', async () => {
    const code = uniqueCode('dup');
    await createDiscount(t, { code });
    const response = await t.call('discounts.create', { code: code.toLowerCase(), type: 'fixed', value: 100 }, master);
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('already_exists');
    expect(response.body.detail).toContain(code);
  });

  it('rejects an unknown type, a zero usage limit and a non-UTC validUntil', async () => {
    for (const body of [
      { type: 'bogo', value: 10 },
      { type: 'percent', value: 10, usageLimit: 0 },
      { type: 'percent', value: 10, validUntil: '2030-01-01T00:00:00+02:00' },
      { type: 'percent', value: 10, extra: true },
    ]) {
      const response = await create(body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_failed');
    }
  });

  it('accepts validUntil and usageLimit and reports remaining uses', async () => {
    const { code } = await createDiscount(t, { type: 'percent', value: 15, validUntil: '2031-06-30T22:00:00Z', usageLimit: 3 });
    const got = await t.call('discounts.get', { code }, master);
    expect(got.body.result).toMatchObject({ validUntil: '2031-06-30T22:00:00.000Z', usageLimit: 3, usageCount: 0, remainingUses: 3 });
  });

  it('audits the creation with the full row', async () => {
    const { id, code } = await createDiscount(t);
    const [entry] = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetId, id), eq(auditEntries.tool, 'discounts.create')));
    expect(entry).toMatchObject({ targetType: 'discount', actorName: 'master', before: null });
    expect(entry?.after).toMatchObject({ id, code, active: true, usageCount: 0 });
  });
});

describe('discounts.toggle', () => {
  it('flips the state when active is omitted, both ways', async () => {
    const { code } = await createDiscount(t);
    const off = await t.call('discounts.toggle', { code: code.toLowerCase() }, master);
    expect(off.body.result).toEqual({ code, active: false });
    const on = await t.call('discounts.toggle', { code }, master);
    expect(on.body.result).toEqual({ code, active: true });
    expect((await t.call('discounts.get', { code }, master)).body.result.active).toBe(true);
  });

  it('sets the given state, and keeps it when it is already so', async () => {
    const { code, id } = await createDiscount(t);
    expect((await t.call('discounts.toggle', { code, active: false }, master)).body.result).toEqual({ code, active: false });
    expect((await t.call('discounts.toggle', { code, active: false }, master)).body.result).toEqual({ code, active: false });
    expect((await t.call('discounts.toggle', { code, active: true }, master)).body.result).toEqual({ code, active: true });
    const entries = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetId, id), eq(auditEntries.tool, 'discounts.toggle')));
    expect(entries).toHaveLength(2);
    expect(entries.map((entry) => (entry.before as { active: boolean }).active).sort()).toEqual([false, true]);
  });

  it('answers an unknown code with 404 not_found', async () => {
    const response = await t.call('discounts.toggle', { code: 'NO-SUCH-CODE' }, master);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('not_found');
  });
});

describe('discounts.list and discounts.get', () => {
  it('lists newest first with exactly the record fields', async () => {
    const first = await createDiscount(t);
    const second = await createDiscount(t, { type: 'fixed', value: 2500 });
    const response = await t.call('discounts.list', {}, master);
    const codes = response.body.result.map((d: { code: string }) => d.code);
    expect(codes.indexOf(second.code)).toBeLessThan(codes.indexOf(first.code));
    for (const record of response.body.result) expect(Object.keys(record).sort()).toEqual(RECORD_KEYS);
  });

  it('filters to active codes and honours limit', async () => {
    const { code } = await createDiscount(t);
    await t.call('discounts.toggle', { code, active: false }, master);
    const active = await t.call('discounts.list', { onlyActive: true, limit: 100 }, master);
    expect(active.body.result.every((d: { active: boolean }) => d.active)).toBe(true);
    expect(active.body.result.map((d: { code: string }) => d.code)).not.toContain(code);
    expect((await t.call('discounts.list', { limit: 100 }, master)).body.result.map((d: { code: string }) => d.code)).toContain(code);
    expect((await t.call('discounts.list', { limit: 2 }, master)).body.result).toHaveLength(2);
    expect((await t.call('discounts.list', { limit: 0 }, master)).status).toBe(400);
    expect((await t.call('discounts.list', { limit: 101 }, master)).status).toBe(400);
  });

  it('gets a code case-insensitively and answers an unknown one with 404', async () => {
    const { code } = await createDiscount(t);
    const got = await t.call('discounts.get', { code: code.toLowerCase() }, master);
    expect(Object.keys(got.body.result).sort()).toEqual(RECORD_KEYS);
    expect(got.body.result.code).toBe(code);
    const missing = await t.call('discounts.get', { code: 'nope-nope' }, master);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('needs discounts:read to read and discounts:write to create', async () => {
    const reader = await t.keyWith('discounts:read');
    expect((await t.call('discounts.list', {}, { key: reader })).status).toBe(200);
    const denied = await t.call('discounts.create', { code: 'ABCD', type: 'percent', value: 5 }, { key: reader });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('insufficient_scope');
  });
});
