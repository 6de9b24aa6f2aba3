import { and, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { Actor } from '../access/actor.ts';
import type { Queryable } from '../db/client.ts';
import { auditEntries } from '../db/schema.ts';
import { describeRule } from './document.ts';
import type { PolicyDocument, PolicyRule } from './document.ts';
import { startOfShopDay } from './shop-day.ts';
import { fingerprintOf, readTarget, relevantState } from './targets.ts';
import type { Target } from './targets.ts';

type Agent = Extract<Actor, { kind: 'key' }>;
type Input = Record<string, unknown>;

/** Why a call is held, and the target's state it was judged on. */
export type Hold = { rule: PolicyRule; reason: string; fingerprint: string; before: Record<string, unknown> | null };

export type HeldCall = { tool: string; input: Input; actor: Actor; now: Date; timeZone: string };

const REFUND_STATUSES = new Set(['refunded', 'partial_refund']);

/** Staff in the console and the master key are the approvers: only agents (API keys, OAuth grants) are held. */
export function rulesFor(document: PolicyDocument, actor: Actor): PolicyRule[] {
  if (actor.kind !== 'key') return [];
  return document.rules.filter((rule) => {
    if (rule.keys === undefined && rule.apps === undefined) return true;
    return (rule.keys?.includes(actor.name) ?? false) || (actor.clientId !== undefined && (rule.apps?.includes(actor.clientId) ?? false));
  });
}

/** The first rule that holds the call, or undefined: the call runs. Reads only what the rules that apply need. */
export async function holdOf(db: Queryable, rules: readonly PolicyRule[], call: HeldCall & { actor: Agent }): Promise<Hold | undefined> {
  let target: Target | undefined | null = null;
  const current = async () => (target === null ? (target = await readTarget(db, call.tool, call.input)) : target);
  for (const rule of rules) {
    const reason = await judge(db, rule, call, current);
    if (reason === undefined) continue;
    const read = await current();
    return { rule, reason, fingerprint: fingerprintOf(read), before: relevantState(read) };
  }
  return undefined;
}

async function judge(
  db: Queryable,
  rule: PolicyRule,
  call: HeldCall & { actor: Agent },
  current: () => Promise<Target | undefined>,
): Promise<string | undefined> {
  const { tool, input } = call;
  switch (rule.kind) {
    case 'tool':
      return tool === rule.tool ? describeRule(rule) : undefined;
    case 'price_drop': {
      const price = newPrice(tool, input);
      if (price === undefined) return undefined;
      const old = (await current())?.row?.priceDkk;
      if (typeof old !== 'number' || old <= 0 || price >= old) return undefined;
      const cut = ((old - price) / old) * 100;
      return cut > rule.percentOver
        ? `${describeRule(rule)}: the price would fall from ${old} to ${price} øre (${Math.round(cut * 10) / 10} % less)`
        : undefined;
    }
    case 'discount_over': {
      if (tool !== 'discounts.create') return undefined;
      const over = input.type === 'percent' ? rule.percentOver : rule.fixedOverOere;
      return over !== undefined && typeof input.value === 'number' && input.value > over ? describeRule(rule) : undefined;
    }
    case 'refund':
      return (await refundAmount(call, current)) === undefined ? undefined : describeRule(rule);
    case 'daily_budget':
      return overBudget(db, rule, call, current);
  }
}

function newPrice(tool: string, input: Input): number | undefined {
  if (tool !== 'products.update' || typeof input.patch !== 'object' || input.patch === null) return undefined;
  const price = (input.patch as Input).priceDkk;
  return typeof price === 'number' ? price : undefined;
}

/**
 * What a call refunds, or undefined when it refunds nothing: orders.refund's amount (left out, it is judged as the whole
 * order total, the most it can be), or a move to refunded or partial_refund from another status, judged as the total.
 */
async function refundAmount(call: HeldCall, current: () => Promise<Target | undefined>): Promise<number | undefined> {
  if (call.tool === 'orders.refund') {
    if (typeof call.input.amount === 'number') return call.input.amount;
    const order = (await current())?.row;
    return typeof order?.totalDkk === 'number' ? order.totalDkk : 0;
  }
  if (call.tool !== 'orders.update_status' || typeof call.input.status !== 'string' || !REFUND_STATUSES.has(call.input.status)) return undefined;
  const order = (await current())?.row;
  if (order?.status === call.input.status) return undefined;
  return typeof order?.totalDkk === 'number' ? order.totalDkk : 0;
}

/**
 * Today's use by this agent (calendar day in the shop's time zone), read from its audit entries, approved calls
 * included: the call that would take a count or sum past the budget is held.
 */
async function overBudget(
  db: Queryable,
  rule: Extract<PolicyRule, { kind: 'daily_budget' }>,
  call: HeldCall & { actor: Agent },
  current: () => Promise<Target | undefined>,
): Promise<string | undefined> {
  const since = startOfShopDay(call.now, call.timeZone);
  const mine = and(eq(auditEntries.actorKeyId, call.actor.keyId), gte(auditEntries.at, since), isNull(auditEntries.revertOf));
  if (rule.priceChanges !== undefined) {
    const price = newPrice(call.tool, call.input);
    const old = price === undefined ? undefined : (await current())?.row?.priceDkk;
    if (price !== undefined && old !== price) {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(auditEntries).where(and(mine, eq(auditEntries.tool, 'products.update'),
        sql`(${auditEntries.before}->'priceDkk') is distinct from (${auditEntries.after}->'priceDkk')`));
      if ((row?.n ?? 0) + 1 > rule.priceChanges) return `${describeRule(rule)} of ${rule.priceChanges} price changes a day`;
    }
  }
  if (rule.discountsCreated !== undefined && call.tool === 'discounts.create') {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(auditEntries).where(and(mine, eq(auditEntries.tool, 'discounts.create')));
    if ((row?.n ?? 0) + 1 > rule.discountsCreated) return `${describeRule(rule)} of ${rule.discountsCreated} new discount codes a day`;
  }
  if (rule.refundsOere !== undefined) {
    const amount = await refundAmount(call, current);
    if (amount !== undefined) {
      // orders.refund entries carry their amount; a status move to a refund status counted the order total.
      const refunded = sql`case when ${auditEntries.tool} = 'orders.refund' then (${auditEntries.after}->'refund'->>'amount')::bigint
        else (${auditEntries.after}->>'totalDkk')::bigint end`;
      const [row] = await db.select({ sum: sql<number>`coalesce(sum(${refunded}), 0)::bigint` }).from(auditEntries)
        .where(and(mine, or(eq(auditEntries.tool, 'orders.refund'), and(eq(auditEntries.tool, 'orders.update_status'),
          sql`${auditEntries.after}->>'status' in ('refunded', 'partial_refund')`,
          sql`(${auditEntries.before}->>'status') is distinct from (${auditEntries.after}->>'status')`))));
      if (Number(row?.sum ?? 0) + amount > rule.refundsOere) return `${describeRule(rule)} of ${rule.refundsOere} øre refunded a day`;
    }
  }
  return undefined;
}
