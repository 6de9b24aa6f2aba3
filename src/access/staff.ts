import { asc, eq, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Channel } from '../context.ts';
import type { Db, Queryable } from '../db/client.ts';
import { staff } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { toIso } from '../schema/common.ts';
import type { Actor } from './actor.ts';
import { appendAudit } from './audit-log.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import { STAFF_ROLES, scopesOfRole } from './staff-roles.ts';
import type { StaffRole } from './staff-roles.ts';

export const StaffEmail = z.string().trim().toLowerCase().pipe(z.email().max(254));
export const StaffPassword = z.string()
  .min(MIN_PASSWORD_LENGTH, `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH);
export const StaffRoleInput = z.enum(STAFF_ROLES);

export type StaffMember = { id: string; email: string; role: StaffRole; createdAt: string | null; lastSignInAt: string | null };

type StaffRow = typeof staff.$inferSelect;

export function describeStaff(row: StaffRow): StaffMember {
  return { id: row.id, email: row.email, role: row.role, createdAt: toIso(row.createdAt), lastSignInAt: toIso(row.lastSignInAt) };
}
const describe = describeStaff;

/**
 * Who changes a staff account, and through which face. Staff management is no tool, but each change is an
 * audit entry (target type `staff`, never a password or its hash), as for keys, so Activity shows it whichever
 * path made it; audit.revert refuses these entries (a removed person is invited again, not restored).
 */
export type StaffAudit = { actor: Actor; channel: Channel; at: Date };

export async function auditStaffChange(db: Queryable, audit: StaffAudit, tool: string, targetId: string, before: unknown, after: unknown): Promise<void> {
  await appendAudit(db, { ...audit, tool, record: { targetType: 'staff', targetId, before, after } });
}

/** What an audit entry keeps of an account: who and which role, never the password hash. */
function audited(row: StaffRow | undefined) {
  return row ? { email: row.email, role: row.role } : null;
}

/** The actor a signed-in person calls tools as: the audit log names them "email (role)". */
export function staffActor(member: Pick<StaffMember, 'id' | 'email' | 'role'>): Extract<Actor, { kind: 'staff' }> {
  return { kind: 'staff', staffId: member.id, email: member.email, role: member.role, scopes: scopesOfRole(member.role) };
}

export async function addStaff(db: Db, input: { email: string; role: StaffRole; password: string }, audit?: StaffAudit): Promise<StaffMember> {
  const email = StaffEmail.parse(input.email);
  const passwordHash = await hashPassword(StaffPassword.parse(input.password));
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(staff).values({ email, role: input.role, passwordHash })
      .onConflictDoNothing({ target: staff.email }).returning();
    if (!row) throw new ToolError('already_exists', `${email} already has an account.`);
    if (audit) await auditStaffChange(tx, audit, 'staff.add', row.id, null, audited(row));
    return describe(row);
  });
}

export async function listStaff(db: Db): Promise<StaffMember[]> {
  return (await db.select().from(staff).orderBy(asc(staff.email))).map(describe);
}

export async function findStaff(db: Db, id: string): Promise<StaffMember | undefined> {
  const [row] = await db.select().from(staff).where(eq(staff.id, id));
  return row ? describe(row) : undefined;
}

export async function hasOwner(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: staff.id }).from(staff).where(eq(staff.role, 'owner')).limit(1);
  return row !== undefined;
}

/**
 * The account with this e-mail and every owner, locked for the rest of the transaction in one statement, in
 * id order: two owners demoting or removing each other at the same moment contend for the same rows in the
 * same order (no deadlock), so the second sees the first's change and the shop never ends with no owner.
 */
async function lockForOwnerCheck(tx: Queryable, email: string): Promise<{ row: StaffRow; otherOwners: number }> {
  const wanted = StaffEmail.parse(email);
  const locked = await tx.select().from(staff).where(or(eq(staff.email, wanted), eq(staff.role, 'owner'))).orderBy(asc(staff.id)).for('update');
  const row = locked.find((candidate) => candidate.email === wanted);
  if (!row) throw new ToolError('not_found', `No staff account has the e-mail ${email}.`);
  return { row, otherOwners: locked.filter((candidate) => candidate.role === 'owner' && candidate.id !== row.id).length };
}

function lastOwner(email: string, change: string): ToolError {
  return new ToolError('last_owner', `${email} is the shop's only owner, so they cannot be ${change}: the shop would have no one to manage keys and staff.`);
}

/** Removing a person also ends every session they have (the sessions table cascades). The last owner stays. */
export async function removeStaff(db: Db, email: string, audit?: StaffAudit): Promise<StaffMember> {
  return db.transaction(async (tx) => {
    const { row, otherOwners } = await lockForOwnerCheck(tx, email);
    if (row.role === 'owner' && otherOwners === 0) throw lastOwner(row.email, 'removed');
    await tx.delete(staff).where(eq(staff.id, row.id));
    if (audit) await auditStaffChange(tx, audit, 'staff.remove', row.id, audited(row), null);
    return describe(row);
  });
}

/** A new role counts at the person's next request (the console reads the account on each one). The last owner stays owner. */
export async function setStaffRole(db: Db, email: string, role: StaffRole, audit: StaffAudit): Promise<StaffMember> {
  return db.transaction(async (tx) => {
    const { row, otherOwners } = await lockForOwnerCheck(tx, email);
    if (row.role === role) return describe(row);
    if (row.role === 'owner' && otherOwners === 0) throw lastOwner(row.email, `made ${role}`);
    const [changed] = await tx.update(staff).set({ role, updatedAt: audit.at }).where(eq(staff.id, row.id)).returning();
    if (!changed) throw new ToolError('not_found', `No staff account has the e-mail ${email}.`);
    await auditStaffChange(tx, audit, 'staff.set-role', row.id, audited(row), audited(changed));
    return describe(changed);
  });
}

/** A new password also signs the person out everywhere: whoever knew the old one loses their session. */
export async function resetStaffPassword(db: Db, email: string, password: string, signOutEverywhere: (staffId: string) => Promise<void>, audit?: StaffAudit): Promise<StaffMember> {
  const passwordHash = await hashPassword(StaffPassword.parse(password));
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx.update(staff).set({ passwordHash, updatedAt: new Date() })
      .where(eq(staff.email, StaffEmail.parse(email))).returning();
    if (!updated) throw new ToolError('not_found', `No staff account has the e-mail ${email}.`);
    if (audit) await auditStaffChange(tx, audit, 'staff.reset-password', updated.id, audited(updated), audited(updated));
    return updated;
  });
  await signOutEverywhere(row.id);
  return describe(row);
}

/**
 * A person's own new password, given their current one: wrong, it changes nothing and answers undefined.
 * The caller ends the person's other sessions and rotates the current one.
 */
export async function changeOwnPassword(db: Db, staffId: string, current: string, next: string): Promise<StaffMember | undefined> {
  const [row] = await db.select().from(staff).where(eq(staff.id, staffId));
  if (!row || !await verifyPassword(current.slice(0, MAX_PASSWORD_LENGTH), row.passwordHash)) return undefined;
  const passwordHash = await hashPassword(StaffPassword.parse(next));
  const [updated] = await db.update(staff).set({ passwordHash, updatedAt: new Date() }).where(eq(staff.id, staffId)).returning();
  return updated ? describe(updated) : undefined;
}

/** Noted at each successful sign-in, for the Staff page's "last signed in". */
export async function recordSignIn(db: Db, staffId: string, at: Date): Promise<void> {
  await db.update(staff).set({ lastSignInAt: at }).where(eq(staff.id, staffId));
}

/**
 * The person with this e-mail and password, or undefined. An unknown e-mail costs the same scrypt work as a
 * wrong password, and both answer the same, so neither the answer nor its time tells whether an account exists.
 */
export async function checkSignIn(db: Db, email: string, password: string): Promise<StaffMember | undefined> {
  const parsed = StaffEmail.safeParse(email);
  const [row] = parsed.success ? await db.select().from(staff).where(eq(staff.email, parsed.data)) : [];
  const matches = await verifyPassword(password.slice(0, MAX_PASSWORD_LENGTH), row?.passwordHash ?? await decoyHash());
  return row && matches ? describe(row) : undefined;
}
