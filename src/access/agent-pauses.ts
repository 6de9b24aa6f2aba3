import { and, eq, isNull, or } from 'drizzle-orm';
import type { Channel } from '../context.ts';
import type { Db, Queryable } from '../db/client.ts';
import { cachedRead, markConfigWritten } from '../db/read-cache.ts';
import { agentPauses, apiKeys, oauthRecords } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { toIso } from '../schema/common.ts';
import type { Actor } from './actor.ts';
import { actorName, isOAuthGrant } from './actor.ts';
import { appendAudit } from './audit-log.ts';

/**
 * An agent is what a person can pause: one API key (`key:<id>`), or one OAuth application with every grant it
 * holds (`app:<client id>`), since an application asks again for a new grant whenever one ends.
 */
export type Agent = `key:${string}` | `app:${string}`;

export type Pause = { agent: Agent; pausedAt: string; pausedBy: string };

export function keyAgent(keyId: string): Agent {
  return `key:${keyId}`;
}

export function appAgent(clientId: string): Agent {
  return `app:${clientId}`;
}

export function isAgent(value: string): value is Agent {
  return /^(key|app):./.test(value);
}

/** The agent a caller is; people in the console, the master key and anonymous callers are none. */
export function agentOf(actor: Actor): Agent | undefined {
  if (actor.kind !== 'key') return undefined;
  if (isOAuthGrant(actor)) return actor.clientId === undefined ? undefined : appAgent(actor.clientId);
  return keyAgent(actor.keyId);
}

/**
 * Every paused agent, from memory while the change feed vouches for it (a trigger on the table announces every
 * write, so a pause made on any instance, or by the CLI on the database, is honoured here as soon as the feed
 * hears it): asking on every call costs no database round trip.
 */
const readPauses = cachedRead(async (db): Promise<ReadonlyMap<string, Pause>> => {
  const rows = await db.select().from(agentPauses);
  return new Map(rows.map((row) => [row.agent, describe(row)]));
});

function describe(row: typeof agentPauses.$inferSelect): Pause {
  return { agent: row.agent as Agent, pausedAt: row.pausedAt.toISOString(), pausedBy: row.pausedBy };
}

/** The pause that holds this caller, if any. */
export async function pauseOf(db: Queryable, actor: Actor): Promise<Pause | undefined> {
  const agent = agentOf(actor);
  if (agent === undefined) return undefined;
  return (await readPauses(db)).get(agent);
}

/** Every paused agent, for the console's list. */
export async function listPauses(db: Queryable): Promise<ReadonlyMap<string, Pause>> {
  return readPauses(db);
}

/** What a refused call is told: who paused it and since when. The problem's resolution says who can resume. */
export function pausedDetail(pause: Pause): string {
  return `This agent was paused by ${pause.pausedBy} at ${pause.pausedAt}; every call it makes is refused until a person resumes it.`;
}

export type PauseAudit = { actor: Actor; channel: Channel; at: Date };

export type PauseState = { agent: Agent; paused: boolean; pausedAt: string | null; pausedBy: string | null };

function state(agent: Agent, row: typeof agentPauses.$inferSelect | undefined): PauseState {
  return { agent, paused: row !== undefined, pausedAt: toIso(row?.pausedAt ?? null), pausedBy: row?.pausedBy ?? null };
}

function audited(db: Queryable, by: PauseAudit, tool: string, before: PauseState, after: PauseState) {
  return appendAudit(db, { ...by, tool, record: { targetType: 'agent', targetId: after.agent, before, after } });
}

/**
 * Pauses an agent: from the commit on, every call it makes is refused (403 agent_paused) on every instance.
 * Pausing a paused agent changes nothing and writes no second entry. Audited as `agents.pause`; resuming is the
 * undo (audit.revert does not restore agents).
 */
export async function pauseAgent(db: Db, agent: Agent, by: PauseAudit, alsoInTransaction?: (tx: Queryable) => Promise<unknown>): Promise<PauseState> {
  return db.transaction(async (tx) => {
    // What else a pause ends (the agent's held calls, policies/pause.ts) is ended with it or not at all.
    await alsoInTransaction?.(tx);
    // This instance drops its copy when the transaction ends; the others when the feed tells them.
    markConfigWritten(tx);
    const [row] = await tx.insert(agentPauses).values({ agent, pausedAt: by.at, pausedBy: actorName(by.actor) })
      .onConflictDoNothing().returning();
    if (!row) {
      const [existing] = await tx.select().from(agentPauses).where(eq(agentPauses.agent, agent));
      return state(agent, existing);
    }
    const after = state(agent, row);
    await audited(tx, by, 'agents.pause', state(agent, undefined), after);
    return after;
  });
}

/** Lets a paused agent call again. Resuming one that is not paused changes nothing. Audited as `agents.resume`. */
export async function resumeAgent(db: Db, agent: Agent, by: PauseAudit): Promise<PauseState> {
  return db.transaction(async (tx) => {
    markConfigWritten(tx);
    const [row] = await tx.delete(agentPauses).where(eq(agentPauses.agent, agent)).returning();
    if (!row) return state(agent, undefined);
    const after = state(agent, undefined);
    await audited(tx, by, 'agents.resume', state(agent, row), after);
    return after;
  });
}

/**
 * The key a person names: its id, or the name of exactly one key not revoked. Two live keys under one name are
 * refused with both ids, so a pause never lands on the wrong one.
 */
export async function keyAgentNamed(db: Queryable, nameOrId: string): Promise<Agent> {
  const rows = await db.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys)
    .where(and(isNull(apiKeys.revokedAt), or(eq(apiKeys.id, nameOrId), eq(apiKeys.name, nameOrId))));
  const byId = rows.find((row) => row.id === nameOrId);
  if (byId) return keyAgent(byId.id);
  const [only, ...others] = rows;
  if (!only) throw new ToolError('not_found', `No API key that is not revoked is named or has the id "${nameOrId}"; butik keys list shows them.`);
  if (others.length > 0) {
    throw new ToolError('validation_failed', `${rows.length} keys are named "${nameOrId}" (ids ${rows.map((row) => row.id).join(', ')}); name the one you mean by its id.`);
  }
  return keyAgent(only.id);
}

/** The OAuth application with this client id, if it is registered. */
export async function appAgentOf(db: Queryable, clientId: string): Promise<Agent> {
  const [row] = await db.select({ id: oauthRecords.id }).from(oauthRecords)
    .where(and(eq(oauthRecords.model, 'Client'), eq(oauthRecords.id, clientId)));
  if (!row) throw new ToolError('not_found', `No OAuth application with client id "${clientId}"; butik oauth list shows them.`);
  return appAgent(clientId);
}
