import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvals, auditEntries, products } from '../../src/db/schema.ts';
import { createTestApp, MASTER_KEY } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';
import { placeOrder, uniqueCode } from '../helpers/commerce.ts';
import { createKey } from '../../src/access/api-keys.ts';
import { keyAgent } from '../../src/access/agent-pauses.ts';
import { pauseAgentAndDenyItsApprovals } from '../../src/policies/pause.ts';
import { denyPendingApprovalsFor, pendingApprovalCounts } from '../../src/policies/approvals.ts';

/** The test's clock: a Tuesday noon in Copenhagen, moved by the budget test. */
let now = new Date('2026-03-10T11:00:00Z');
let t: TestApp;
let agent: string;
let other: string;

beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
  agent = await keyNamed('my-agent');
  other = await keyNamed('other-agent');
});
afterAll(async () => { await t?.close(); });

const ALL_SCOPES = ['products:write', 'discounts:write', 'discounts:read', 'orders:write', 'orders:read', 'catalog:read'] as const;

async function keyNamed(name: string): Promise<string> {
  return (await createKey(t.database.db, { name, scopes: [...ALL_SCOPES] }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() })).key;
}

async function command(name: string, input: unknown, key = MASTER_KEY) {
  const response = await t.app.inject({
    method: 'POST', url: `/api/v1/commands/${name}`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(input),
  });
  return { status: response.statusCode, body: JSON.parse(response.body) };
}

async function setPolicies(document: unknown) {
  const response = await command('policies.set', { document });
  if (response.status !== 200) throw new Error(`policies.set failed: ${JSON.stringify(response.body)}`);
}

async function priceOf(slug: string): Promise<number> {
  const [row] = await t.database.db.select({ price: products.priceDkk }).from(products).where(eq(products.slug, slug));
  return row!.price;
}

describe('the policy document', () => {
  it('refuses an unknown kind, tool or field by name, and a refused document changes nothing', async () => {
    await setPolicies({ rules: [{ kind: 'refund' }] });
    for (const [document, named] of [
      [{ rules: [{ kind: 'maybe' }] }, '"maybe"'],
      [{ rules: [{ kind: 'tool', tool: 'products.explode' }] }, '"products.explode"'],
      [{ rules: [{ kind: 'price_drop', percentOver: 20, percent: 5 }] }, '"percent"'],
      ['{"rules": [', 'not JSON'],
    ] as const) {
      const response = await command('policies.set', { document });
      expect(response.status).toBe(400);
      expect(response.body.detail).toContain(named);
    }
    expect((await command('policies.show', {})).body.result).toEqual({ rules: [{ kind: 'refund' }] });
  });

  it('is no agent\'s to read or write: no tool, and the owner commands refuse a key', async () => {
    expect((await t.call('policies.set', { document: { rules: [] } }, { key: agent })).status).toBe(404);
    const refused = await command('policies.set', { document: { rules: [] } }, agent);
    expect(refused.status).toBe(403);
    expect((await command('policies.show', {}, agent)).status).toBe(403);
  });

  it('audits each change with the document before and after', async () => {
    await setPolicies({ rules: [{ kind: 'tool', tool: 'products.delete' }] });
    const [entry] = await t.database.db.select().from(auditEntries).where(eq(auditEntries.targetType, 'policies'))
      .orderBy(auditEntries.at).limit(1).offset(0);
    expect(entry).toMatchObject({ tool: 'policies.set', actorKind: 'master' });
  });

  it('puts back the document a change replaced, for people only: an agent\'s audit.revert refuses it', async () => {
    await setPolicies({ rules: [{ kind: 'refund' }] });
    // A second later, so the change to revert is the newest entry.
    now = new Date(now.getTime() + 1000);
    await setPolicies({ rules: [] });
    const [latest] = await t.database.db.select().from(auditEntries).where(eq(auditEntries.tool, 'policies.set'))
      .orderBy(desc(auditEntries.at), desc(auditEntries.id)).limit(1);
    const reverter = await createKey(t.database.db, { name: 'reverter', scopes: ['audit:revert'] }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() });
    expect((await t.call('audit.revert', { entryId: latest!.id }, { key: reverter.key })).status).toBe(422);
    expect((await command('policies.revert', { entryId: latest!.id }, agent)).status).toBe(403);
    const reverted = await command('policies.revert', { entryId: latest!.id });
    expect(reverted.status).toBe(200);
    expect((await command('policies.show', {})).body.result).toEqual({ rules: [{ kind: 'refund' }] });
    expect((await command('policies.revert', { entryId: latest!.id })).status).toBe(422);
  });
});

describe('rule kinds', () => {
  it('tool: every call of it is held, nothing is written, and the master key is not held', async () => {
    await setPolicies({ rules: [{ kind: 'tool', tool: 'products.delete' }] });
    const product = await createProduct(t);
    const held = await t.call('products.delete', { slug: product.slug, confirm: true }, { key: agent });
    expect(held.status).toBe(202);
    expect(held.body).toMatchObject({ ok: true, pending: true, approval: { status: 'pending', reason: 'every products.delete call needs a person\'s approval' } });
    expect(held.body.approval.url).toBe(`http://butik.test/admin/approvals/${held.body.approval.id}`);
    expect((await t.call('products.get', { slug: product.slug })).status).toBe(200);
    expect((await t.call('products.delete', { slug: product.slug, confirm: true }, master)).status).toBe(200);
  });

  it('price_drop: a cut over the percentage is held, a smaller one runs', async () => {
    await setPolicies({ rules: [{ kind: 'price_drop', percentOver: 20 }] });
    const product = await createProduct(t, { priceDkk: 100000 });
    expect((await t.call('products.update', { slug: product.slug, patch: { priceDkk: 85000 } }, { key: agent })).status).toBe(200);
    const held = await t.call('products.update', { slug: product.slug, patch: { priceDkk: 8500 } }, { key: agent });
    expect(held.status).toBe(202);
    expect(held.body.approval.reason).toContain('from 85000 to 8500 øre');
    expect(await priceOf(product.slug)).toBe(85000);
  });

  it('discount_over: over the percent or the fixed amount is held', async () => {
    await setPolicies({ rules: [{ kind: 'discount_over', percentOver: 30, fixedOverOere: 50000 }] });
    expect((await t.call('discounts.create', { code: uniqueCode(), type: 'percent', value: 30 }, { key: agent })).status).toBe(200);
    expect((await t.call('discounts.create', { code: uniqueCode(), type: 'percent', value: 31 }, { key: agent })).status).toBe(202);
    expect((await t.call('discounts.create', { code: uniqueCode(), type: 'fixed', value: 50001 }, { key: agent })).status).toBe(202);
    expect((await t.call('discounts.create', { code: uniqueCode(), type: 'fixed', value: 50000 }, { key: agent })).status).toBe(200);
  });

  it('refund: a move to refunded or partial_refund is held; another move runs', async () => {
    await setPolicies({ rules: [{ kind: 'refund' }] });
    const order = await placeOrder(t);
    expect((await t.call('orders.update_status', { orderId: order.orderId, status: 'paid' }, { key: agent })).status).toBe(200);
    expect((await t.call('orders.update_status', { orderId: order.orderId, status: 'refunded' }, { key: agent })).status).toBe(202);
    expect((await t.call('orders.update_status', { orderId: order.orderId, status: 'partial_refund' }, { key: agent })).status).toBe(202);
    expect((await t.call('orders.get', { orderId: order.orderId }, master)).body.result.status).toBe('paid');
  });

  it('refund: an agent\'s orders.refund is held too; over a daily refund budget it is held, within it it runs', async () => {
    await setPolicies({ rules: [{ kind: 'refund' }] });
    const order = await placeOrder(t);
    await t.call('orders.update_status', { orderId: order.orderId, status: 'paid' }, master);
    expect((await t.call('orders.refund', { orderId: order.orderId, amount: 100 }, { key: agent })).status).toBe(202);

    await setPolicies({ rules: [{ kind: 'daily_budget', refundsOere: 5000 }] });
    const refunder = await keyNamed('refund-agent');
    expect((await t.call('orders.refund', { orderId: order.orderId, amount: 3000 }, { key: refunder })).status).toBe(200);
    const over = await t.call('orders.refund', { orderId: order.orderId, amount: 2001 }, { key: refunder });
    expect(over.status).toBe(202);
    expect(over.body.reason ?? JSON.stringify(over.body)).toContain('5000 øre refunded a day');
    expect((await t.call('orders.refund', { orderId: order.orderId, amount: 2000 }, { key: refunder })).status).toBe(200);
    const refunds = (await t.call('orders.get', { orderId: order.orderId }, master)).body.result.refunds;
    expect(refunds.map((refund: { amount: number }) => refund.amount)).toEqual([3000, 2000]);
  });

  it('daily_budget: the call over the day\'s count is held for the keys it names; the count restarts at the shop\'s midnight', async () => {
    await setPolicies({ rules: [{ kind: 'daily_budget', discountsCreated: 2, keys: ['my-agent'] }] });
    // 22:30 in Copenhagen (UTC+1 in March): two codes fit, the third is held.
    now = new Date('2026-03-11T21:30:00Z');
    const create = (key: string) => t.call('discounts.create', { code: uniqueCode(), type: 'percent', value: 5 }, { key });
    expect((await create(agent)).status).toBe(200);
    expect((await create(agent)).status).toBe(200);
    expect((await create(agent)).status).toBe(202);
    // A key the rule does not name is not counted or held.
    for (let i = 0; i < 3; i += 1) expect((await create(other)).status).toBe(200);
    // 23:59 local is still the same day; 00:00 local (23:00 UTC) starts a new one.
    now = new Date('2026-03-11T22:59:59Z');
    expect((await create(agent)).status).toBe(202);
    now = new Date('2026-03-11T23:00:00Z');
    expect((await create(agent)).status).toBe(200);
    now = new Date('2026-03-10T11:00:00Z');
  });

  it('daily_budget: price changes and refunded øre are counted too', async () => {
    await setPolicies({ rules: [{ kind: 'daily_budget', priceChanges: 1, refundsOere: 1 }] });
    // A key of its own: the other tests' price changes today are my-agent's.
    const fresh = await keyNamed('budget-agent');
    const product = await createProduct(t, { priceDkk: 100000 });
    expect((await t.call('products.update', { slug: product.slug, patch: { priceDkk: 99000 } }, { key: fresh })).status).toBe(200);
    expect((await t.call('products.update', { slug: product.slug, patch: { priceDkk: 98000 } }, { key: fresh })).status).toBe(202);
    // The same price again changes nothing and counts nothing.
    expect((await t.call('products.update', { slug: product.slug, patch: { priceDkk: 99000, stock: 3 } }, { key: fresh })).status).toBe(200);
    const order = await placeOrder(t);
    expect((await t.call('orders.update_status', { orderId: order.orderId, status: 'refunded' }, { key: fresh })).status).toBe(202);
  });
});

describe('a held call', () => {
  it('sent again with the same idempotency key answers the same approval, never a second', async () => {
    await setPolicies({ rules: [{ kind: 'tool', tool: 'products.delete' }] });
    const product = await createProduct(t);
    const send = () => t.call('products.delete', { slug: product.slug, confirm: true }, { key: agent, headers: { 'idempotency-key': `del-${product.slug}` } });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(202);
    expect(second.body.approval.id).toBe(first.body.approval.id);
    const rows = await t.database.db.select().from(approvals).where(eq(approvals.idempotencyKey, `del-${product.slug}`));
    expect(rows).toHaveLength(1);
  });

  it('is approved by a person: it runs as the agent, the audit names both, and approvals.get answers the result', async () => {
    await setPolicies({ rules: [{ kind: 'price_drop', percentOver: 20 }] });
    const product = await createProduct(t, { priceDkk: 100000 });
    const held = await t.call('products.update', { slug: product.slug, patch: { priceDkk: 10000 } }, { key: agent });
    const { id } = held.body.approval;
    expect((await t.call('approvals.get', { id }, { key: agent })).body.result).toMatchObject({ id, status: 'pending', tool: 'products.update' });
    // Another agent does not see it.
    expect((await t.call('approvals.get', { id }, { key: other })).status).toBe(404);

    const approved = await command('approvals.approve', { id });
    expect(approved.status).toBe(200);
    expect(await priceOf(product.slug)).toBe(10000);
    const [entry] = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.tool, 'products.update'), isNotNull(auditEntries.approvedBy), eq(auditEntries.targetId, product.id)));
    expect(entry).toMatchObject({ actorName: 'my-agent', actorKind: 'key', approvedBy: 'master' });
    const polled = await t.call('approvals.get', { id }, { key: agent });
    expect(polled.body.result).toMatchObject({ status: 'approved', decidedBy: 'master', result: { id: product.id, slug: product.slug } });
    expect((await t.call('approvals.list', {}, { key: agent })).body.result.approvals.map((a: { id: string }) => a.id)).toContain(id);
    // Decided once: a second decision is refused.
    expect((await command('approvals.deny', { id })).status).toBe(409);
  });

  it('is denied with a note the agent reads', async () => {
    await setPolicies({ rules: [{ kind: 'refund' }] });
    const order = await placeOrder(t);
    const held = await t.call('orders.update_status', { orderId: order.orderId, status: 'refunded' }, { key: agent });
    expect((await command('approvals.deny', { id: held.body.approval.id, note: 'Not this one.' })).status).toBe(200);
    const polled = await t.call('approvals.get', { id: held.body.approval.id }, { key: agent });
    expect(polled.body.result).toMatchObject({ status: 'denied', decidedBy: 'master', note: 'Not this one.' });
    expect((await t.call('orders.get', { orderId: order.orderId }, master)).body.result.status).not.toBe('refunded');
  });

  it('fails with conflict and writes nothing when its target changed since the hold', async () => {
    await setPolicies({ rules: [{ kind: 'price_drop', percentOver: 20 }] });
    const product = await createProduct(t, { priceDkk: 100000 });
    const held = await t.call('products.update', { slug: product.slug, patch: { priceDkk: 10000 } }, { key: agent });
    expect((await t.call('products.update', { slug: product.slug, patch: { priceDkk: 90000 } }, master)).status).toBe(200);
    const approved = await command('approvals.approve', { id: held.body.approval.id });
    expect(approved.status).toBe(409);
    expect(approved.body.detail).toContain('changed since it was held');
    expect(await priceOf(product.slug)).toBe(90000);
    const agentEntries = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetId, product.id), eq(auditEntries.actorName, 'my-agent')));
    expect(agentEntries).toHaveLength(0);
    const polled = await t.call('approvals.get', { id: held.body.approval.id }, { key: agent });
    expect(polled.body.result).toMatchObject({ status: 'failed', problem: { code: 'conflict' } });
  });

  it('expires after 24 hours and can no longer be approved', async () => {
    await setPolicies({ rules: [{ kind: 'tool', tool: 'products.delete' }] });
    const product = await createProduct(t);
    const held = await t.call('products.delete', { slug: product.slug, confirm: true }, { key: agent });
    now = new Date(now.getTime() + 24 * 60 * 60 * 1000 + 1);
    try {
      expect((await t.call('approvals.get', { id: held.body.approval.id }, { key: agent })).body.result.status).toBe('expired');
      expect((await command('approvals.approve', { id: held.body.approval.id })).status).toBe(409);
    } finally {
      now = new Date('2026-03-10T11:00:00Z');
    }
  });
});

describe('for pausing an agent', () => {
  it('pausing an agent denies its waiting calls in the same step', async () => {
    await setPolicies({ rules: [{ kind: 'tool', tool: 'products.delete' }] });
    const agent = await createKey(t.database.db, { name: 'paused-with-calls', scopes: ['products:write'] }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() });
    const product = await createProduct(t);
    const held = (await t.call('products.delete', { slug: product.slug, confirm: true }, { key: agent.key })).body.approval;
    await pauseAgentAndDenyItsApprovals(t.database.db, keyAgent(agent.id), { actor: { kind: 'cli' }, channel: 'cli', at: new Date() });
    expect((await t.call('approvals.get', { id: held.id }, { key: agent.key })).status).toBe(403);
    const [row] = await t.database.db.select().from(approvals).where(eq(approvals.id, held.id));
    expect(row).toMatchObject({ status: 'denied', decidedBy: 'cli' });
    expect(row?.note).toContain('paused');
  });

  it('counts pending approvals per agent and denies all of one agent\'s at once', async () => {
    await setPolicies({ rules: [{ kind: 'tool', tool: 'products.delete' }] });
    const paused = await createKey(t.database.db, { name: 'to-pause', scopes: ['products:write'] }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() });
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const product = await createProduct(t);
      ids.push((await t.call('products.delete', { slug: product.slug, confirm: true }, { key: paused.key })).body.approval.id);
    }
    expect((await pendingApprovalCounts(t.database.db, now)).get(keyAgent(paused.id))).toBe(2);
    expect(await denyPendingApprovalsFor(t.database.db, keyAgent(paused.id), { by: 'olga@shop.dk (owner)', note: 'Paused.', now })).toBe(2);
    expect((await pendingApprovalCounts(t.database.db, now)).get(keyAgent(paused.id))).toBeUndefined();
    for (const id of ids) {
      expect((await t.call('approvals.get', { id }, { key: paused.key })).body.result).toMatchObject({ status: 'denied', note: 'Paused.' });
    }
  });
});

describe('an agent cannot approve its own call', () => {
  it('finds no tool, and the owner commands refuse its key (MCP: held-mcp.test.ts)', async () => {
    await setPolicies({ rules: [{ kind: 'tool', tool: 'products.delete' }] });
    const product = await createProduct(t);
    const { id } = (await t.call('products.delete', { slug: product.slug, confirm: true }, { key: agent })).body.approval;
    for (const name of ['approvals.approve', 'approvals.deny', 'approvals.decide']) {
      expect((await t.call(name, { id }, { key: agent })).status).toBe(404);
    }
    expect((await command('approvals.approve', { id }, agent)).status).toBe(403);
    expect((await command('approvals.deny', { id }, agent)).status).toBe(403);
    const [row] = await t.database.db.select().from(approvals).where(eq(approvals.id, id));
    expect(row?.status).toBe('pending');
  });
});
