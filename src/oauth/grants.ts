import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { appendAudit } from '../access/audit-log.ts';
import type { Actor } from '../access/actor.ts';
import type { Channel } from '../context.ts';
import type { Db, Queryable } from '../db/client.ts';
import { oauthRecords } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { isDocumentClientId } from './names.ts';

/** Who ends a connection, how and when: the audit entry of a revocation names them. */
export type RevokeAudit = { actor: Actor; channel: Channel; at: Date };

/** What the owner sees of one connected (or connecting) application. */
export type Connection = {
  clientId: string;
  clientName: string | null;
  /** The host of the client_id URL when the client is named by a client metadata document, else null (registered). */
  documentHost: string | null;
  redirectUris: string[];
  /** null once a grant made it permanent; else when the unused registration is deleted. */
  expiresAt: string | null;
  grants: Array<{
    grantId: string; scopes: Record<string, string>; grantedAt: string | null; expiresAt: string | null; liveTokens: number;
    /** When the newest token under the grant was issued (a refresh counts): the last time the app came back. */
    lastTokenAt: string | null;
  }>;
};

type Payload = Record<string, unknown>;
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const epoch = (value: unknown): string | null => (typeof value === 'number' ? new Date(value * 1000).toISOString() : null);
const live = (now: Date) => or(isNull(oauthRecords.expiresAt), gt(oauthRecords.expiresAt, now));

/** Every registered client with its grants (scopes per resource) and how many tokens under each still work. */
export async function listConnections(db: Db, now: Date): Promise<Connection[]> {
  const clients = await db.select().from(oauthRecords).where(and(eq(oauthRecords.model, 'Client'), live(now)));
  const grants = await db.select().from(oauthRecords).where(and(eq(oauthRecords.model, 'Grant'), live(now)));
  const tokens = await db.select({
    grantId: oauthRecords.grantId,
    live: sql<number>`count(*) filter (where ${live(now)})`.mapWith(Number),
    lastIat: sql<number | null>`max((${oauthRecords.payload}->>'iat')::bigint)`.mapWith(Number),
  }).from(oauthRecords)
    .where(inArray(oauthRecords.model, ['AccessToken', 'RefreshToken']))
    .groupBy(oauthRecords.grantId);
  const byGrant = new Map(tokens.map((row) => [row.grantId, row]));
  return clients.map((client) => {
    const payload = client.payload as Payload;
    return {
      clientId: client.id,
      clientName: text(payload.client_name),
      documentHost: isDocumentClientId(client.id) ? (URL.parse(client.id)?.host ?? null) : null,
      redirectUris: Array.isArray(payload.redirect_uris) ? payload.redirect_uris.filter((uri) => typeof uri === 'string') : [],
      expiresAt: client.expiresAt?.toISOString() ?? null,
      grants: grants.filter((grant) => (grant.payload as Payload).clientId === client.id).map((grant) => {
        const grantPayload = grant.payload as Payload;
        const resources = grantPayload.resources;
        return {
          grantId: grant.id,
          scopes: resources && typeof resources === 'object' ? Object.fromEntries(Object.entries(resources).map(([resource, scope]) => [resource, String(scope)])) : {},
          grantedAt: epoch(grantPayload.iat),
          expiresAt: grant.expiresAt?.toISOString() ?? null,
          liveTokens: byGrant.get(grant.id)?.live ?? 0,
          lastTokenAt: epoch(byGrant.get(grant.id)?.lastIat),
        };
      }),
    };
  });
}

/** What an audit entry keeps of a revoked grant or client: who it was and what it could do, never a token. */
function describe(row: { model: string; id: string; payload: unknown }): Record<string, unknown> {
  const payload = row.payload as Payload;
  return row.model === 'Client'
    ? { clientId: row.id, clientName: text(payload.client_name) }
    : { grantId: row.id, clientId: text(payload.clientId), scopes: payload.resources ?? null, grantedAt: epoch(payload.iat) };
}

function audited(db: Queryable, by: RevokeAudit, tool: string, targetType: string, row: { model: string; id: string; payload: unknown }) {
  return appendAudit(db, { ...by, tool, record: { targetType, targetId: row.id, before: describe(row), after: null } });
}

/**
 * Ends one grant: the grant and every token and code issued under it stop working at once, on every instance.
 * Audited as `oauth.revoke-grant`; there is no undo, the application asks the owner again.
 */
export async function revokeGrant(db: Db, grantId: string, by: RevokeAudit): Promise<{ grantId: string; deletedRecords: number }> {
  return db.transaction(async (tx) => {
    const deleted = await tx.delete(oauthRecords)
      .where(or(and(eq(oauthRecords.model, 'Grant'), eq(oauthRecords.id, grantId)), eq(oauthRecords.grantId, grantId)))
      .returning({ model: oauthRecords.model, id: oauthRecords.id, payload: oauthRecords.payload });
    const grant = deleted.find((row) => row.model === 'Grant');
    if (!grant) throw new ToolError('not_found', `No OAuth grant ${grantId}.`);
    await audited(tx, by, 'oauth.revoke-grant', 'oauth_grant', grant);
    return { grantId, deletedRecords: deleted.length };
  });
}

/**
 * Removes a client with all its grants and their tokens: the application has to register and be approved again.
 * Audited as `oauth.revoke-client`, without undo.
 */
export async function revokeClient(db: Db, clientId: string, by: RevokeAudit): Promise<{ clientId: string; deletedRecords: number }> {
  return db.transaction(async (tx) => {
    const grantIds = tx.select({ id: oauthRecords.id }).from(oauthRecords)
      .where(and(eq(oauthRecords.model, 'Grant'), sql`${oauthRecords.payload}->>'clientId' = ${clientId}`));
    const deleted = await tx.delete(oauthRecords).where(or(
      and(eq(oauthRecords.model, 'Client'), eq(oauthRecords.id, clientId)),
      inArray(oauthRecords.grantId, grantIds),
      sql`${oauthRecords.payload}->>'clientId' = ${clientId}`,
    )).returning({ model: oauthRecords.model, id: oauthRecords.id, payload: oauthRecords.payload });
    const client = deleted.find((row) => row.model === 'Client');
    if (!client) throw new ToolError('not_found', `No OAuth client ${clientId}.`);
    await audited(tx, by, 'oauth.revoke-client', 'oauth_client', client);
    return { clientId, deletedRecords: deleted.length };
  });
}
