import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { staff } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { toIso } from '../schema/common.ts';
import type { Actor } from './actor.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import { STAFF_ROLES, scopesOfRole } from './staff-roles.ts';
import type { StaffRole } from './staff-roles.ts';

export const StaffEmail = z.string().trim().toLowerCase().pipe(z.email().max(254));
export const StaffPassword = z.string()
  .min(MIN_PASSWORD_LENGTH, `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH);
export const StaffRoleInput = z.enum(STAFF_ROLES);

export type StaffMember = { id: string; email: string; role: StaffRole; createdAt: string | null };

type StaffRow = typeof staff.$inferSelect;

function describe(row: StaffRow): StaffMember {
  return { id: row.id, email: row.email, role: row.role, createdAt: toIso(row.createdAt) };
}

/** The actor a signed-in person calls tools as: the audit log names them "email (role)". */
export function staffActor(member: Pick<StaffMember, 'id' | 'email' | 'role'>): Extract<Actor, { kind: 'staff' }> {
  return { kind: 'staff', staffId: member.id, email: member.email, role: member.role, scopes: scopesOfRole(member.role) };
}

export async function addStaff(db: Db, input: { email: string; role: StaffRole; password: string }): Promise<StaffMember> {
  const email = StaffEmail.parse(input.email);
  const passwordHash = await hashPassword(StaffPassword.parse(input.password));
  const [row] = await db.insert(staff).values({ email, role: input.role, passwordHash })
    .onConflictDoNothing({ target: staff.email }).returning();
  if (!row) throw new ToolError('already_exists', `${email} already has an account.`);
  return describe(row);
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

/** Removing a person also ends every session they have (the sessions table cascades). */
export async function removeStaff(db: Db, email: string): Promise<StaffMember> {
  const [row] = await db.delete(staff).where(eq(staff.email, StaffEmail.parse(email))).returning();
  if (!row) throw new ToolError('not_found', `No staff account has the e-mail ${email}.`);
  return describe(row);
}

/** A new password also signs the person out everywhere: whoever knew the old one loses their session. */
export async function resetStaffPassword(db: Db, email: string, password: string, signOutEverywhere: (staffId: string) => Promise<void>): Promise<StaffMember> {
  const passwordHash = await hashPassword(StaffPassword.parse(password));
  const [row] = await db.update(staff).set({ passwordHash, updatedAt: new Date() })
    .where(eq(staff.email, StaffEmail.parse(email))).returning();
  if (!row) throw new ToolError('not_found', `No staff account has the e-mail ${email}.`);
  await signOutEverywhere(row.id);
  return describe(row);
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
