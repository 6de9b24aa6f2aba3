import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
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

/** The key new signatures are made with: the newest one not retired (made if there is none yet). */
export async function currentSigningKey(db: Queryable): Promise<{ kid: string; key: KeyObject }> {
  const [newest] = await publishedSigningKeys(db);
  if (!newest) throw new Error('no signing key');
  const [row] = await db.select({ privateJwk: ucpSigningKeys.privateJwk }).from(ucpSigningKeys).where(eq(ucpSigningKeys.kid, newest.kid));
  if (!row) throw new Error(`signing key ${newest.kid} vanished`);
  const { kid: _kid, ...jwk } = row.privateJwk;
  return { kid: newest.kid, key: createPrivateKey({ key: jwk, format: 'jwk' }) };
}

/**
 * A detached JWS over the exact body (RFC 7515 with RFC 7797's unencoded payload): `header..signature`,
 * ES256 with the signature as r‖s. The receiver puts the body it got between the dots to verify it.
 */
export function signDetached(payload: string, signer: { kid: string; key: KeyObject }): string {
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: signer.kid, b64: false, crit: ['b64'] })).toString('base64url');
  const signature = sign('sha256', Buffer.concat([Buffer.from(`${header}.`), Buffer.from(payload)]), { key: signer.key, dsaEncoding: 'ieee-p1363' });
  return `${header}..${signature.toString('base64url')}`;
}

/** Adds a new current key; the old ones stay published, so signatures made with them can still be checked. */
export async function rotateSigningKey(db: Queryable): Promise<string> {
  const key = newKey();
  await db.insert(ucpSigningKeys).values(key);
  return key.kid;
}

/** Stops publishing a key (and signing with it); false when no published key has that id. */
export async function retireSigningKey(db: Queryable, kid: string, now: Date): Promise<boolean> {
  const retired = await db.update(ucpSigningKeys).set({ retiredAt: now })
    .where(and(eq(ucpSigningKeys.kid, kid), isNull(ucpSigningKeys.retiredAt))).returning({ kid: ucpSigningKeys.kid });
  return retired.length > 0;
}
