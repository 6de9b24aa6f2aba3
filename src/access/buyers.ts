import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { buyers } from '../db/schema.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, decoyHash, hashPassword, verifyPassword } from './passwords.ts';

/**
 * Shoppers' accounts, for identity linking (docs/ucp.md#identity-linking). Passwords are hashed and checked
 * exactly as staff passwords are (passwords.ts); an unknown e-mail and a wrong password cost the same work and
 * get the same answer.
 */
export const BuyerEmail = z.string().trim().toLowerCase().pipe(z.email().max(254));
export const BuyerPassword = z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH);

export type Buyer = { id: string; email: string };

export type SignUp = { ok: true; buyer: Buyer } | { ok: false; problem: 'email' | 'password' | 'taken' };

/** A new account; `taken` when the e-mail has one already (said only on the sign-up page, which is rate-limited). */
export async function createBuyer(db: Db, input: { email: string; password: string }): Promise<SignUp> {
  const email = BuyerEmail.safeParse(input.email);
  if (!email.success) return { ok: false, problem: 'email' };
  const password = BuyerPassword.safeParse(input.password);
  if (!password.success) return { ok: false, problem: 'password' };
  const [row] = await db.insert(buyers).values({ email: email.data, passwordHash: await hashPassword(password.data) })
    .onConflictDoNothing({ target: buyers.email }).returning({ id: buyers.id, email: buyers.email });
  return row ? { ok: true, buyer: row } : { ok: false, problem: 'taken' };
}

/**
 * The buyer with this e-mail and password, or undefined. An unknown e-mail is checked against a decoy hash, so
 * neither the answer nor its time tells whether an account exists.
 */
export async function checkBuyerSignIn(db: Db, email: string, password: string): Promise<Buyer | undefined> {
  const parsed = BuyerEmail.safeParse(email);
  const [row] = parsed.success ? await db.select().from(buyers).where(eq(buyers.email, parsed.data)) : [];
  const matches = await verifyPassword(password.slice(0, MAX_PASSWORD_LENGTH), row?.passwordHash ?? await decoyHash());
  return row && matches ? { id: row.id, email: row.email } : undefined;
}

export async function findBuyer(db: Db, id: string): Promise<Buyer | undefined> {
  const [row] = await db.select({ id: buyers.id, email: buyers.email }).from(buyers).where(eq(buyers.id, id));
  return row;
}
