import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

/**
 * scrypt at N=2^15, r=8, p=1 (32 MiB per hash, OWASP's floor for scrypt). The parameters are stored with
 * every hash, so raising them later still verifies the old ones.
 */
type Cost = { N: number; r: number; p: number };
export const PASSWORD_COST: Cost = { N: 2 ** 15, r: 8, p: 1 };
let cost = PASSWORD_COST;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/**
 * For the test suite only (test/setup/password-cost.ts): hashes made from then on in this process use N=2^10,
 * so the hundreds of accounts the tests create and sign in to do not each spend 32 MiB and a tenth of a second
 * (verifying reads the cost stored with each hash, so nothing else changes). It refuses outside vitest, which
 * sets VITEST=true in its workers, so no server can run with it; nothing in src/ calls it.
 */
export function useTestPasswordCost(): void {
  if (process.env.VITEST !== 'true') throw new Error('the test password cost is for the vitest suite only');
  cost = { N: 2 ** 10, r: 8, p: 1 };
}

function derive(password: string, salt: Buffer, { N, r, p }: Cost): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time comparison of a password with a stored hash; a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let decoy: Promise<string> | undefined;

/**
 * A hash no password was chosen for: checking against it when the e-mail is unknown costs the same scrypt
 * work as a wrong password, so the time of the answer does not tell whether an account exists.
 */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString('base64url'));
  return decoy;
}
