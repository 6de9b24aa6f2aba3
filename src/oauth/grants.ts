import { and, count, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { oauthRecords } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';

/** What the owner sees of one connected (or connecting) application. */
export type Connection = {
  clientId: string;
  clientName: string | null;
  redirectUris: string[];
  /** null once a grant made it permanent; else when the unused registration is deleted. */
  expiresAt: string | null;
  grants: Array<{ grantId: string; scopes: Record<string, string>; grantedAt: string | null; expiresAt: string | null; liveTokens: number }>;
};

type Payload = Record<string, unknown>;
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const epoch = (value: unknown): string | null => (typeof value === 'number' ? new Date(value * 1000).toISOString() : null);
const live = (now: Date) => or(isNull(oauthRecords.expiresAt), gt(oauthRecords.expiresAt, now));

/** Every registered client with its grants (scopes per resource) and how many tokens under each still work. */
export async function listConnections(db: Db, now: Date): Promise<Connection[]> {
  const clients = await db.select().from(oauthRecords).where(and(eq(oauthRecords.model, 'Client'), live(now)));
  const grants = await db.select().from(oauthRecords).where(and(eq(oauthRecords.model, 'Grant'), live(now)));
  const tokens = await db.select({ grantId: oauthRecords.grantId, live: count() }).from(oauthRecords)
    .where(and(inArray(oauthRecords.model, ['AccessToken', 'RefreshToken']), live(now)))
    .groupBy(oauthRecords.grantId);
  const liveTokens = new Map(tokens.map((row) => [row.grantId, row.live]));
  return clients.map((client) => {
    const payload = client.payload as Payload;
    return {
      clientId: client.id,
      clientName: text(payload.client_name),
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
          liveTokens: liveTokens.get(grant.id) ?? 0,
        };
      }),
    };
  });
}

/** Ends one grant: the grant and every token and code issued under it stop working at once, on every instance. */
export async function revokeGrant(db: Db, grantId: string): Promise<{ grantId: string; deletedRecords: number }> {
  const deleted = await db.delete(oauthRecords)
    .where(or(and(eq(oauthRecords.model, 'Grant'), eq(oauthRecords.id, grantId)), eq(oauthRecords.grantId, grantId)))
    .returning({ model: oauthRecords.model });
  if (!deleted.some((row) => row.model === 'Grant')) throw new ToolError('not_found', `No OAuth grant ${grantId}.`);
  return { grantId, deletedRecords: deleted.length };
}

/** Removes a client with all its grants and their tokens: the application has to register and be approved again. */
export async function revokeClient(db: Db, clientId: string): Promise<{ clientId: string; deletedRecords: number }> {
  return db.transaction(async (tx) => {
    const grantIds = tx.select({ id: oauthRecords.id }).from(oauthRecords)
      .where(and(eq(oauthRecords.model, 'Grant'), sql`${oauthRecords.payload}->>'clientId' = ${clientId}`));
    const deleted = await tx.delete(oauthRecords).where(or(
      and(eq(oauthRecords.model, 'Client'), eq(oauthRecords.id, clientId)),
      inArray(oauthRecords.grantId, grantIds),
      sql`${oauthRecords.payload}->>'clientId' = ${clientId}`,
    )).returning({ model: oauthRecords.model });
    if (!deleted.some((row) => row.model === 'Client')) throw new ToolError('not_found', `No OAuth client ${clientId}.`);
    return { clientId, deletedRecords: deleted.length };
  });
}
