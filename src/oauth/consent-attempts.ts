import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { oauthRecords } from '../db/schema.ts';

/** Wrong master keys one interaction may take; the next one ends it, and the client hears access_denied. */
export const MAX_CONSENT_FAILURES = 5;

/** Not a model of oidc-provider's: the failure count of one consent interaction, beside its records. */
const MODEL = 'ConsentFailures';

/**
 * Counts one wrong master key against the interaction `uid` and returns the count so far. One atomic upsert,
 * so concurrent guesses on several instances are all counted; the row expires with the interaction.
 */
export async function countConsentFailure(db: Db, uid: string, expiresAt: Date): Promise<number> {
  const [row] = await db.insert(oauthRecords)
    .values({ model: MODEL, id: uid, payload: { count: 1 }, expiresAt })
    .onConflictDoUpdate({
      target: [oauthRecords.model, oauthRecords.id],
      set: { payload: sql`jsonb_build_object('count', (${oauthRecords.payload}->>'count')::int + 1)` },
    })
    .returning({ payload: oauthRecords.payload });
  const payload = row?.payload as { count?: unknown } | undefined;
  return typeof payload?.count === 'number' ? payload.count : MAX_CONSENT_FAILURES;
}
