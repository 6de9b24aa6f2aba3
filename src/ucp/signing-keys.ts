import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { isNull } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { ucpSigningKeys } from '../db/schema.ts';

export type PublicJwk = { kid: string; kty: string; crv: string; x: string; y: string; use: 'sig'; alg: 'ES256' };

function newKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = `butik-${randomUUID()}`;
  const publicJwk = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  const privateJwk = privateKey.export({ format: 'jwk' }) as Record<string, string>;
  return { kid, publicJwk: { ...publicJwk, kid, use: 'sig', alg: 'ES256' }, privateJwk: { ...privateJwk, kid } };
}

/**
 * The keys /.well-known/ucp publishes: every key not yet retired, the newest first. The first instance to
 * need one makes it; instances racing on an empty table settle on whatever key is then the newest.
 */
export async function publishedSigningKeys(db: Queryable): Promise<PublicJwk[]> {
  let rows = await db.select({ publicJwk: ucpSigningKeys.publicJwk, createdAt: ucpSigningKeys.createdAt })
    .from(ucpSigningKeys).where(isNull(ucpSigningKeys.retiredAt));
  if (rows.length === 0) {
    await db.insert(ucpSigningKeys).values(newKey()).onConflictDoNothing();
    rows = await db.select({ publicJwk: ucpSigningKeys.publicJwk, createdAt: ucpSigningKeys.createdAt })
      .from(ucpSigningKeys).where(isNull(ucpSigningKeys.retiredAt));
  }
  return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).map((row) => row.publicJwk as PublicJwk);
}
