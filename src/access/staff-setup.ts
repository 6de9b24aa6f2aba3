import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { staff, staffSetupTokens } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { hashPassword } from './passwords.ts';
import { StaffEmail, StaffPassword, describeStaff, hasOwner } from './staff.ts';
import type { StaffMember } from './staff.ts';

/** Long enough to finish the setup after a first start, short enough that a stray copy soon opens nothing. */
export const SETUP_LINK_LIFETIME_MS = 60 * 60 * 1000;
const TOKEN_BYTES = 32;

export const SETUP_PATH = '/admin/setup';

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * A fresh one-time setup token while the shop has no owner, or undefined once it has one. Every start of
 * an instance without an owner makes its own; any of them works on every instance sharing the database.
 */
export async function issueSetupToken(db: Db, now: Date): Promise<string | undefined> {
  if (await hasOwner(db)) return undefined;
  await db.delete(staffSetupTokens).where(lte(staffSetupTokens.expiresAt, now));
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  await db.insert(staffSetupTokens).values({ tokenHash: hashOf(token), expiresAt: new Date(now.getTime() + SETUP_LINK_LIFETIME_MS) });
  return token;
}

/** Whether the link still opens the setup form: known, unexpired, and no owner yet. */
export async function setupTokenIsOpen(db: Db, token: string, now: Date): Promise<boolean> {
  const [row] = await db.select({ expiresAt: staffSetupTokens.expiresAt }).from(staffSetupTokens)
    .where(and(eq(staffSetupTokens.tokenHash, hashOf(token)), gt(staffSetupTokens.expiresAt, now)));
  return row !== undefined && !await hasOwner(db);
}

/**
 * Creates the first owner with the token, once. The e-mail and password are checked before anything is
 * used up, so a typo keeps the link. Then one transaction deletes every setup token and creates the owner
 * only if this token was among them: two people using two links at the same moment contend for the same
 * rows, and the second finds them gone, so the shop never gets two first owners.
 */
export async function completeSetup(db: Db, input: { token: string; email: string; password: string; now: Date }): Promise<StaffMember> {
  const email = StaffEmail.parse(input.email);
  const passwordHash = await hashPassword(StaffPassword.parse(input.password));
  const tokenHash = hashOf(input.token);
  return db.transaction(async (tx) => {
    const removed = await tx.delete(staffSetupTokens).returning();
    const mine = removed.find((row) => row.tokenHash === tokenHash && row.expiresAt > input.now);
    if (!mine) throw new ToolError('not_found', 'This setup link was used already, has expired or is not right.');
    const [owner] = await tx.select({ id: staff.id }).from(staff).where(eq(staff.role, 'owner')).limit(1);
    if (owner) throw new ToolError('not_found', 'The shop already has an owner.');
    const [row] = await tx.insert(staff).values({ email, role: 'owner', passwordHash, lastSignInAt: input.now })
      .onConflictDoNothing({ target: staff.email }).returning();
    if (!row) throw new ToolError('already_exists', `${email} already has an account.`);
    return describeStaff(row);
  });
}
