import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { ucpSigningKeys } from '../../db/schema.ts';
import type { SigningKey } from './message-signatures.ts';

export type PublicJwk = { kid: string; kty: string; crv: string; x: string; y: string; use: 'sig'; alg: 'ES256' };

function newKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = `butik-${randomUUID()}`;
  const publicJwk = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  const privateJwk = privateKey.export({ format: 'jwk' }) as Record<string, string>;
  return { kid, publicJwk: { ...publicJwk, kid, use: 'sig', alg: 'ES256' }, privateJwk: { ...privateJwk, kid } };
}

/** Every key not yet retired, the newest first; the first instance to need one makes it. */
async function liveKeys(db: Queryable): Promise<Array<{ kid: string; publicJwk: PublicJwk; createdAt: Date }>> {
  const read = () => db.select({ kid: ucpSigningKeys.kid, publicJwk: ucpSigningKeys.publicJwk, createdAt: ucpSigningKeys.createdAt })
    .from(ucpSigningKeys).where(isNull(ucpSigningKeys.retiredAt));
  let rows = await read();
  if (rows.length === 0) {
    // Instances racing on an empty table settle on whatever key is then the newest.
    await db.insert(ucpSigningKeys).values(newKey()).onConflictDoNothing();
    rows = await read();
  }
  return rows.map((row) => ({ ...row, publicJwk: row.publicJwk as PublicJwk })).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** The keys /.well-known/ucp publishes: every key not yet retired, the newest first. */
export async function publishedSigningKeys(db: Queryable): Promise<PublicJwk[]> {
  return (await liveKeys(db)).map((row) => row.publicJwk);
}

/**
 * How long a new key is published before it signs: the discovery document's max-age, so a platform that cached
 * the profile just before the rotation has the new key by the time a signature names it.
 */
export const PUBLISH_LEAD_MS = 5 * 60_000;

/** The key new signatures are made with: the newest one published for PUBLISH_LEAD_MS, else the oldest there is. */
export async function currentSigningKey(db: Queryable, now: Date): Promise<SigningKey> {
  const keys = await liveKeys(db);
  const chosen = keys.find((key) => key.createdAt.getTime() <= now.getTime() - PUBLISH_LEAD_MS) ?? keys.at(-1);
  if (!chosen) throw new Error('no signing key');
  const [row] = await db.select({ privateJwk: ucpSigningKeys.privateJwk }).from(ucpSigningKeys).where(eq(ucpSigningKeys.kid, chosen.kid));
  if (!row) throw new Error(`signing key ${chosen.kid} vanished`);
  const { kid: _kid, ...jwk } = row.privateJwk;
  return { kid: chosen.kid, key: createPrivateKey({ key: jwk, format: 'jwk' }) };
}

/** How long one process signs with the key it last read before reading the store again. */
const KEY_CACHE_MS = 30_000;

/**
 * The current signing key for every answer and webhook of this process, read from the store at most every
 * 30 seconds: a rotation or retirement made by another instance or the CLI reaches it within that.
 */
export function signingKeySource(db: Queryable, clock: () => Date) {
  let held: { until: number; key: Promise<SigningKey> } | undefined;
  return function current(): Promise<SigningKey> {
    const now = clock();
    if (held && held.until > now.getTime()) return held.key;
    const read = { until: now.getTime() + KEY_CACHE_MS, key: currentSigningKey(db, now) };
    // A failed read is not kept: the next call tries the store again.
    read.key.catch(() => {
      if (held === read) held = undefined;
    });
    held = read;
    return read.key;
  };
}
export type SigningKeySource = ReturnType<typeof signingKeySource>;

/**
 * A detached JWS over the exact body (RFC 7515 with RFC 7797's unencoded payload): `header..signature`,
 * ES256 with the signature as r‖s. The receiver puts the body it got between the dots to verify it.
 */
export function signDetached(payload: string, signer: SigningKey): string {
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

/** How long a key stays published after its successor took over, so signatures made with it can still be checked. */
export const RETIRE_GRACE_MS = 7 * 24 * 60 * 60_000;

export type Retirement = { retired: true } | { retired: false; reason: string };

/**
 * Stops publishing a key (and signing with it). Unless it is `compromised`, a key is retired only once a newer
 * key has signed in its place for RETIRE_GRACE_MS, as UCP's rotation asks; a compromised key goes at once.
 */
export async function retireSigningKey(db: Queryable, kid: string, now: Date, options: { compromised?: boolean } = {}): Promise<Retirement> {
  const keys = await liveKeys(db);
  const key = keys.find((candidate) => candidate.kid === kid);
  if (!key) return { retired: false, reason: `no published signing key "${kid}"` };
  if (!options.compromised) {
    const successor = keys.filter((candidate) => candidate.createdAt > key.createdAt).at(-1);
    if (!successor) return { retired: false, reason: `${kid} is the newest key: rotate first, or give --compromised to remove it at once` };
    const allowedFrom = new Date(successor.createdAt.getTime() + PUBLISH_LEAD_MS + RETIRE_GRACE_MS);
    if (now < allowedFrom) {
      return { retired: false, reason: `${kid} stays published until ${allowedFrom.toISOString()}, seven days after ${successor.kid} took over; give --compromised to remove it at once` };
    }
  }
  const retired = await db.update(ucpSigningKeys).set({ retiredAt: now })
    .where(and(eq(ucpSigningKeys.kid, kid), isNull(ucpSigningKeys.retiredAt))).returning({ kid: ucpSigningKeys.kid });
  return retired.length > 0 ? { retired: true } : { retired: false, reason: `no published signing key "${kid}"` };
}
