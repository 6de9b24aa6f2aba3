import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { hashSecret } from '../access/api-keys.ts';
import type { Db } from '../db/client.ts';
import { oauthRecords } from '../db/schema.ts';
import { clientDocuments } from './client-documents.ts';
import { isDocumentClientId } from './names.ts';

/**
 * The models whose id is itself the credential a client presents (the bearer token, the refresh token, the
 * code). They are stored under the SHA-256 of that id, and without the copy of it oidc-provider keeps in the
 * payload (`jti`), so that whoever reads the table (a backup, a replica, a leaked dump) holds nothing usable,
 * as with API keys. A lookup brings the id it was asked for, so the payload is whole again when read.
 */
const SECRET_ID_MODELS = new Set(['AccessToken', 'RefreshToken', 'AuthorizationCode']);

/**
 * Anyone may register a client, so a client that never reaches a grant is not kept: it expires this long after
 * registration, and the sweep deletes it. The first grant saved for it makes it permanent.
 */
export const UNCONFIRMED_CLIENT_TTL_SECONDS = 24 * 3600;

function storedId(model: string, id: string): string {
  return SECRET_ID_MODELS.has(model) ? hashSecret(id) : id;
}

function storedPayload(model: string, payload: AdapterPayload): AdapterPayload {
  if (!SECRET_ID_MODELS.has(model)) return payload;
  const { jti: _jti, ...rest } = payload;
  return rest;
}

/** A client's row: only on insert does it get the unconfirmed expiry, so the expiry a grant lifted stays lifted. */
async function saveClient(db: Db, id: string, payload: AdapterPayload): Promise<void> {
  await db.insert(oauthRecords).values({
    model: 'Client', id, payload, expiresAt: new Date(Date.now() + UNCONFIRMED_CLIENT_TTL_SECONDS * 1000),
  }).onConflictDoUpdate({ target: [oauthRecords.model, oauthRecords.id], set: { payload } });
}

/**
 * oidc-provider's storage interface over the one oauth_records table. The library builds one adapter per model
 * name (AccessToken, Grant, Session, Client …); rows are keyed by (model, id). A client whose id is a URL is no
 * row but its client metadata document (client-documents.ts), fetched and cached here; each fetched copy is
 * saved as its row all the same, so the console lists it and a grant makes it permanent like any client.
 */
export function adapterFor(db: Db, options: { loopbackClientDocuments: boolean }): new (model: string) => Adapter {
  const documents = clientDocuments({
    loopback: options.loopbackClientDocuments,
    remember: (payload) => saveClient(db, String(payload.client_id), payload),
  });
  return class DrizzleAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        model: this.model,
        id: storedId(this.model, id),
        payload: storedPayload(this.model, payload),
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      if (this.model === 'Client') return saveClient(db, row.id, row.payload);
      // A document's client may have lost its row (disconnected in the console) while its document is still cached:
      // the grant puts it back, so the app it approved again is listed. A refused document leaves that to the next fetch.
      if (this.model === 'Grant' && typeof payload.clientId === 'string' && isDocumentClientId(payload.clientId)) {
        const client = await documents.find(payload.clientId).catch(() => undefined);
        if (client) await saveClient(db, payload.clientId, client);
      }
      await db.transaction(async (tx) => {
        await tx.insert(oauthRecords).values(row).onConflictDoUpdate({
          target: [oauthRecords.model, oauthRecords.id],
          set: { payload: row.payload, grantId: row.grantId, userCode: row.userCode, uid: row.uid, expiresAt: row.expiresAt },
        });
        if (this.model === 'Grant' && typeof payload.clientId === 'string') {
          await tx.update(oauthRecords).set({ expiresAt: null })
            .where(and(eq(oauthRecords.model, 'Client'), eq(oauthRecords.id, payload.clientId)));
        }
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client' && isDocumentClientId(id)) return documents.find(id);
      const payload = await this.findWhere(eq(oauthRecords.id, storedId(this.model, id)));
      return payload && SECRET_ID_MODELS.has(this.model) ? { ...payload, jti: id } : payload;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oauthRecords.userCode, userCode));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oauthRecords.uid, uid));
    }

    async consume(id: string): Promise<void> {
      await db.update(oauthRecords).set({ consumedAt: new Date() })
        .where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, storedId(this.model, id))));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oauthRecords).where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, storedId(this.model, id))));
    }

    /** Revoking a grant removes every token issued under it, of every model (RFC 7009 §2.1). */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oauthRecords).where(eq(oauthRecords.grantId, grantId));
    }

    private async findWhere(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db.select().from(oauthRecords).where(and(
        eq(oauthRecords.model, this.model),
        condition,
        or(isNull(oauthRecords.expiresAt), gt(oauthRecords.expiresAt, new Date())),
      ));
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }
  };
}

/**
 * Deletes every expired record: tokens, codes, sessions and interactions past their lifetime, and clients
 * that never reached a grant. One statement that any number of instances may run at once.
 */
export async function sweepExpiredRecords(db: Db, now: Date): Promise<number> {
  const deleted = await db.delete(oauthRecords).where(lt(oauthRecords.expiresAt, now)).returning({ id: sql`1` });
  return deleted.length;
}
