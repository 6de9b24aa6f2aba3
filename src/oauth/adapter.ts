import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import { oauthRecords } from '../db/schema.ts';

/**
 * oidc-provider's storage interface over the one oauth_records table. The library builds one adapter per model
 * name (AccessToken, Grant, Session, Client …); rows are keyed by (model, id).
 */
export function adapterFor(db: Db): new (model: string) => Adapter {
  return class DrizzleAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        model: this.model,
        id,
        payload,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db.insert(oauthRecords).values(row).onConflictDoUpdate({
        target: [oauthRecords.model, oauthRecords.id],
        set: { payload: row.payload, grantId: row.grantId, userCode: row.userCode, uid: row.uid, expiresAt: row.expiresAt },
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oauthRecords.id, id));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oauthRecords.userCode, userCode));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oauthRecords.uid, uid));
    }

    async consume(id: string): Promise<void> {
      await db.update(oauthRecords).set({ consumedAt: new Date() })
        .where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, id)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oauthRecords).where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, id)));
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
