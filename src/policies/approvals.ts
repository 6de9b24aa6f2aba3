import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { callerId } from '../access/actor.ts';
import type { Actor } from '../access/actor.ts';
import type { Agent as PausableAgent } from '../access/agent-pauses.ts';
import type { Channel } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { APPROVAL_STATUSES, approvals } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { JsonObject } from '../schema/common.ts';
import type { Hold } from './hold.ts';

/** A held call waits this long for a person; then it is expired and can no longer be approved. */
export const APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;

export type ApprovalRow = typeof approvals.$inferSelect;
type Agent = Extract<Actor, { kind: 'key' }>;

/** What a held answer carries and approvals.get answers (docs/behaviour.md#a-held-call). */
export const ApprovalShape = z.strictObject({
  id: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  url: z.url().meta({ description: 'Where a person approves or denies it: BASE_URL/admin/approvals/<id>.' }),
  expiresAt: z.iso.datetime(),
  reason: z.string().meta({ description: 'The rule that held the call, in plain words.' }),
  tool: z.string(),
  createdAt: z.iso.datetime(),
  result: JsonObject.optional().meta({ description: 'approved: the tool\'s result.' }),
  decidedBy: z.string().optional().meta({ description: 'approved or denied: the person who decided.' }),
  note: z.string().optional().meta({ description: 'denied: the person\'s note, when they wrote one.' }),
  problem: z.object({ code: z.string(), detail: z.string() }).optional()
    .meta({ description: 'failed: why, e.g. code conflict when the target changed since the hold.' }),
});
export type ApprovalView = z.infer<typeof ApprovalShape>;

/** The `approval` member of a held answer: the five fields an agent needs to ask and to poll. */
export const HeldApprovalShape = ApprovalShape.pick({ id: true, url: true, expiresAt: true, reason: true })
  .extend({ status: z.literal('pending') });
export type HeldApproval = z.infer<typeof HeldApprovalShape>;

export function approvalUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/admin/approvals/${encodeURIComponent(id)}`;
}

/** A pending approval past its time reads as expired, whether or not a sweep has written it yet. */
export function statusAt(row: Pick<ApprovalRow, 'status' | 'expiresAt'>, now: Date): ApprovalRow['status'] {
  return row.status === 'pending' && row.expiresAt <= now ? 'expired' : row.status;
}

export function viewOf(row: ApprovalRow, baseUrl: string, now: Date): ApprovalView {
  const status = statusAt(row, now);
  return {
    id: row.id, status, url: approvalUrl(baseUrl, row.id), expiresAt: row.expiresAt.toISOString(), reason: row.reason, tool: row.tool,
    createdAt: row.createdAt.toISOString(),
    ...(status === 'approved' && row.result !== null ? { result: row.result as Record<string, unknown> } : {}),
    ...(row.decidedBy !== null && (status === 'approved' || status === 'denied') ? { decidedBy: row.decidedBy } : {}),
    ...(row.note !== null ? { note: row.note } : {}),
    ...(status === 'failed' && row.problem ? { problem: row.problem as { code: string; detail: string } } : {}),
  };
}

/** The held answer of a new approval (or of the one the same idempotency key made before): always pending when sent. */
export function heldOf(view: ApprovalView): HeldApproval {
  return { id: view.id, status: 'pending', url: view.url, expiresAt: view.expiresAt, reason: view.reason };
}

/**
 * Records a held call. The same idempotency key sent again by the same agent finds the approval it made the
 * first time (the unique index makes two racing sends one), never a second one.
 */
export async function createApproval(
  db: Queryable,
  held: { actor: Agent; channel: Channel; tool: string; input: unknown; idempotencyKey: string | undefined; hold: Hold; now: Date },
): Promise<{ row: ApprovalRow; created: boolean }> {
  const caller = callerId(held.actor);
  const [row] = await db.insert(approvals).values({
    caller,
    agentName: held.actor.name,
    actor: { keyId: held.actor.keyId, name: held.actor.name, scopes: [...held.actor.scopes], ...(held.actor.clientId ? { clientId: held.actor.clientId } : {}) },
    channel: held.channel,
    tool: held.tool,
    input: held.input,
    idempotencyKey: held.idempotencyKey ?? null,
    reason: held.hold.reason,
    fingerprint: held.hold.fingerprint,
    preview: held.hold.before,
    status: 'pending',
    createdAt: held.now,
    expiresAt: new Date(held.now.getTime() + APPROVAL_TTL_MS),
  }).onConflictDoNothing().returning();
  if (row) return { row, created: true };
  const [existing] = await db.select().from(approvals)
    .where(and(eq(approvals.caller, caller), eq(approvals.idempotencyKey, held.idempotencyKey ?? '')));
  if (!existing) throw new Error('approval insert conflicted but found no row');
  return { row: existing, created: false };
}

/** One approval of this caller's own; another's is not found (an agent never learns of another's calls). */
export async function ownApproval(db: Queryable, actor: Actor, id: string): Promise<ApprovalRow> {
  const [row] = await db.select().from(approvals).where(and(eq(approvals.id, id), eq(approvals.caller, callerId(actor))));
  if (!row) throw new ToolError('not_found', `There is no approval ${id} of this caller.`);
  return row;
}

export async function ownApprovals(db: Queryable, actor: Actor, limit: number): Promise<ApprovalRow[]> {
  return db.select().from(approvals).where(eq(approvals.caller, callerId(actor)))
    .orderBy(desc(approvals.createdAt), desc(approvals.id)).limit(limit);
}

/** Every approval for the console: pending first, newest first. */
export async function allApprovals(db: Queryable, limit: number): Promise<ApprovalRow[]> {
  return db.select().from(approvals)
    .orderBy(sql`(${approvals.status} = 'pending') desc`, desc(approvals.createdAt), desc(approvals.id)).limit(limit);
}

export async function approvalById(db: Queryable, id: string, lock = false): Promise<ApprovalRow> {
  const query = db.select().from(approvals).where(eq(approvals.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new ToolError('not_found', `There is no approval ${id}.`);
  return row;
}

/** A pending approval, locked, that a person may decide; anything else says why not. */
export async function pendingForDecision(db: Queryable, id: string, now: Date): Promise<ApprovalRow> {
  const row = await approvalById(db, id, true);
  const status = statusAt(row, now);
  if (status !== 'pending') {
    throw new ToolError('conflict', `Approval ${id} is ${status}, not pending: it can no longer be approved or denied.`);
  }
  return row;
}

export async function settleApproval(
  db: Queryable,
  id: string,
  outcome: { status: 'approved' | 'denied' | 'failed'; by: string; note?: string; result?: unknown; problem?: { code: string; detail: string }; now: Date },
): Promise<ApprovalRow> {
  const [row] = await db.update(approvals).set({
    status: outcome.status, decidedAt: outcome.now, decidedBy: outcome.by, note: outcome.note ?? null,
    result: outcome.result ?? null, problem: outcome.problem ?? null,
  }).where(eq(approvals.id, id)).returning();
  if (!row) throw new ToolError('not_found', `There is no approval ${id}.`);
  return row;
}

/** A person denies a pending approval; the agent sees who and the note. */
export async function denyApproval(db: Queryable, id: string, decision: { by: string; note?: string; now: Date }): Promise<ApprovalRow> {
  await pendingForDecision(db, id, decision.now);
  return settleApproval(db, id, { status: 'denied', ...decision });
}

/**
 * Denies every pending approval of one agent at once: what pausing it does to the calls it left waiting, since
 * a person who stops an agent does not want its held calls to run later by a click. A key's approvals are its
 * own; an application's are those of every grant it holds. Returns how many.
 */
export async function denyPendingApprovalsFor(
  db: Queryable,
  agent: PausableAgent,
  decision: { by: string; note?: string; now: Date },
): Promise<number> {
  const [kind, id] = [agent.slice(0, 3), agent.slice(4)];
  const whose = kind === 'key' ? eq(approvals.caller, `key:${id}`) : sql`${approvals.actor}->>'clientId' = ${id}`;
  const denied = await db.update(approvals)
    .set({ status: 'denied', decidedAt: decision.now, decidedBy: decision.by, note: decision.note ?? null })
    .where(and(whose, eq(approvals.status, 'pending')))
    .returning({ id: approvals.id });
  return denied.length;
}

/**
 * Pending (not yet expired) approvals per agent, for the console's Agents page: a key's own, and an application's
 * summed over every grant it holds (the same agents a pause names).
 */
export async function pendingApprovalCounts(db: Queryable, now: Date): Promise<Map<PausableAgent, number>> {
  const clientId = sql<string | null>`${approvals.actor}->>'clientId'`;
  const rows = await db.select({ caller: approvals.caller, clientId, n: sql<number>`count(*)::int` }).from(approvals)
    .where(and(eq(approvals.status, 'pending'), sql`${approvals.expiresAt} > ${now}`)).groupBy(approvals.caller, clientId);
  const counts = new Map<PausableAgent, number>();
  for (const row of rows) {
    const agent: PausableAgent = row.clientId ? `app:${row.clientId}` : `key:${row.caller.replace(/^key:/, '')}`;
    counts.set(agent, (counts.get(agent) ?? 0) + Number(row.n));
  }
  return counts;
}

/** How many calls wait for a person now: the console navigation's badge. */
export async function pendingApprovalTotal(db: Queryable, now: Date): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(approvals)
    .where(and(eq(approvals.status, 'pending'), sql`${approvals.expiresAt} > ${now}`));
  return Number(row?.n ?? 0);
}

/** Writes `expired` on pending approvals past their time (reads already show them expired). */
export async function expireApprovals(db: Queryable, now: Date): Promise<void> {
  await db.update(approvals).set({ status: 'expired' })
    .where(and(eq(approvals.status, 'pending'), lt(approvals.expiresAt, now)));
}
