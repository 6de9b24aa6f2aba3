import { and, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { apiKeys, auditEntries, oauthRecords } from '../db/schema.ts';
import { OAUTH_KEY_PREFIX } from './actor.ts';
import { appAgent, keyAgent, listPauses } from './agent-pauses.ts';
import type { Agent, Pause } from './agent-pauses.ts';

/** One agent as the console lists it: an API key, or an OAuth application with all its grants. */
export type AgentSummary = {
  agent: Agent;
  kind: 'key' | 'app';
  name: string;
  scopes: string[];
  /**
   * The last time it was seen: a key's last use (recorded at most once a minute), an application's newest
   * token (it fetches one at least every token lifetime while it works).
   */
  lastSeenAt: string | null;
  /** Audited changes since `since`: reads are not recorded per call, so they are not counted. */
  changesSince: number;
  pause: Pause | null;
};

type Payload = Record<string, unknown>;
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Every agent that can call: keys not revoked, and registered OAuth applications. Four reads, whatever the
 * number of agents, so the page stays cheap with many of them.
 */
export async function listAgents(db: Queryable, since: Date): Promise<AgentSummary[]> {
  const [keys, clients, grants, pauses] = await Promise.all([
    db.select().from(apiKeys).where(isNull(apiKeys.revokedAt)).orderBy(apiKeys.createdAt, apiKeys.id),
    db.select({ id: oauthRecords.id, payload: oauthRecords.payload }).from(oauthRecords).where(eq(oauthRecords.model, 'Client')).orderBy(oauthRecords.id),
    db.select({ id: oauthRecords.id, payload: oauthRecords.payload }).from(oauthRecords).where(eq(oauthRecords.model, 'Grant')),
    listPauses(db),
  ]);
  const changes = await db.select({ actor: auditEntries.actorKeyId, count: sql<number>`count(*)`.mapWith(Number) })
    .from(auditEntries).where(and(eq(auditEntries.actorKind, 'key'), isNotNull(auditEntries.actorKeyId), gte(auditEntries.at, since)))
    .groupBy(auditEntries.actorKeyId);
  const changesBy = new Map(changes.map((row) => [row.actor, row.count]));
  const lastTokens = grants.length === 0 ? [] : await db.select({
    grantId: oauthRecords.grantId,
    lastIat: sql<number | null>`max((${oauthRecords.payload}->>'iat')::bigint)`.mapWith(Number),
  }).from(oauthRecords)
    .where(and(inArray(oauthRecords.model, ['AccessToken', 'RefreshToken']), isNotNull(oauthRecords.grantId)))
    .groupBy(oauthRecords.grantId);
  const lastTokenOf = new Map(lastTokens.map((row) => [row.grantId, row.lastIat]));

  const keyRows: AgentSummary[] = keys.map((key) => ({
    agent: keyAgent(key.id),
    kind: 'key',
    name: key.name,
    scopes: key.scopes,
    lastSeenAt: key.lastUsedAt?.toISOString() ?? null,
    changesSince: changesBy.get(key.id) ?? 0,
    pause: pauses.get(keyAgent(key.id)) ?? null,
  }));
  const appRows: AgentSummary[] = clients.map((client) => {
    const own = grants.filter((grant) => (grant.payload as Payload).clientId === client.id);
    const scopes = new Set(own.flatMap((grant) => Object.values((grant.payload as Payload).resources ?? {})
      .flatMap((scope) => String(scope).split(' ')).filter(Boolean)));
    const newest = Math.max(0, ...own.map((grant) => lastTokenOf.get(grant.id) ?? 0));
    return {
      agent: appAgent(client.id),
      kind: 'app',
      name: text((client.payload as Payload).client_name) ?? client.id,
      scopes: [...scopes].sort(),
      lastSeenAt: newest > 0 ? new Date(newest * 1000).toISOString() : null,
      changesSince: own.reduce((sum, grant) => sum + (changesBy.get(`${OAUTH_KEY_PREFIX}${grant.id}`) ?? 0), 0),
      pause: pauses.get(appAgent(client.id)) ?? null,
    };
  });
  return [...keyRows, ...appRows];
}

/** One agent by its id, or undefined when no such key (not revoked) or application exists. */
export async function findAgent(db: Queryable, agent: string, since: Date): Promise<AgentSummary | undefined> {
  return (await listAgents(db, since)).find((row) => row.agent === agent);
}

/**
 * The audit actor ids an agent's entries carry: the key's id, or `oauth:<grant>` for each live grant of the
 * application (a grant that was revoked is deleted with its tokens; the entries it made stay in Activity).
 */
export async function actorKeyIdsOf(db: Queryable, agent: Agent): Promise<string[]> {
  if (agent.startsWith('key:')) return [agent.slice('key:'.length)];
  const clientId = agent.slice('app:'.length);
  const grants = await db.select({ id: oauthRecords.id }).from(oauthRecords)
    .where(and(eq(oauthRecords.model, 'Grant'), sql`${oauthRecords.payload}->>'clientId' = ${clientId}`));
  return grants.map((grant) => `${OAUTH_KEY_PREFIX}${grant.id}`);
}

/** The one agent whose audit entries carry this actor name (a key's name, `oauth:<app name>`), if exactly one does. */
export async function agentActing(db: Queryable, actorName: string, since: Date): Promise<AgentSummary | undefined> {
  const named = (await listAgents(db, since)).filter((agent) => (agent.kind === 'key' ? agent.name : `oauth:${agent.name}`) === actorName);
  return named.length === 1 ? named[0] : undefined;
}
