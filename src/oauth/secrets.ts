import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { oauthRecords } from '../db/schema.ts';

export type ProviderSecrets = { signingKey: JsonWebKey; cookieKeys: string[] };

const MODEL = 'ButikSecrets';
const ID = 'provider';

/**
 * The token-signing key and cookie keys live in the database, made once by whichever instance starts first
 * (insert … on conflict do nothing, then read back), so every instance signs and verifies alike and sessions
 * survive restarts. They are never logged.
 */
export async function loadSecrets(db: Db): Promise<ProviderSecrets> {
  const fresh: ProviderSecrets = {
    signingKey: { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
  await db.insert(oauthRecords).values({ model: MODEL, id: ID, payload: fresh }).onConflictDoNothing();
  const [row] = await db.select().from(oauthRecords).where(and(eq(oauthRecords.model, MODEL), eq(oauthRecords.id, ID)));
  if (!row) throw new Error('the OAuth secrets could not be stored');
  return row.payload as ProviderSecrets;
}
