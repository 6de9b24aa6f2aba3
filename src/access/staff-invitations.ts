import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client.ts';
import { auditEntries, staff, staffInvitations } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { toIso } from '../schema/common.ts';
import { hashPassword } from './passwords.ts';
import { StaffEmail, StaffPassword, auditStaffChange, describeStaff, staffActor } from './staff.ts';
import type { StaffAudit, StaffMember } from './staff.ts';
import type { StaffRole } from './staff-roles.ts';

/** A day: time to read the message the owner sent, short enough that a forgotten link soon opens nothing. */
export const INVITATION_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TOKEN_BYTES = 32;

export const INVITE_PATH = '/admin/invite';

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** `replacedEarlier`: a pending link for the same e-mail stopped working because of this one. */
export type Invitation = { email: string; role: StaffRole; expiresAt: string | null; link: string; replacedEarlier: boolean };

/** An invitation nobody has used, withdrawn or let expire: its link still opens the password form. */
const isPending = (now: Date) => and(isNull(staffInvitations.usedAt), isNull(staffInvitations.cancelledAt), gt(staffInvitations.expiresAt, now));

/**
 * A one-time link that lets one person set their password and sign in with the role the owner chose. Only
 * a SHA-256 of its token is stored, so the link is shown once, here. An e-mail that already has an account
 * is refused: that person signs in, or the owner resets their password. Inviting an e-mail again withdraws
 * its pending link, so only the newest link (and role) works and the list shows one invitation per person.
 */
export async function inviteStaff(db: Db, input: { email: string; role: StaffRole }, audit: StaffAudit & { baseUrl: string }): Promise<Invitation> {
  const email = StaffEmail.parse(input.email);
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const expiresAt = new Date(audit.at.getTime() + INVITATION_LIFETIME_MS);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: staff.id }).from(staff).where(eq(staff.email, email));
    if (existing) throw new ToolError('already_exists', `${email} already has an account.`);
    const replaced = await tx.update(staffInvitations).set({ cancelledAt: audit.at })
      .where(and(eq(staffInvitations.email, email), isPending(audit.at))).returning();
    for (const earlier of replaced) await auditWithdrawal(tx, audit, earlier);
    const [row] = await tx.insert(staffInvitations).values({ tokenHash: hashOf(token), email, role: input.role, expiresAt }).returning();
    if (!row) throw new Error('invitation insert returned no row');
    await auditStaffChange(tx, audit, 'staff.invite', row.id, null, { email, role: input.role, expiresAt: toIso(expiresAt) });
    return { email, role: input.role, expiresAt: toIso(expiresAt), link: `${audit.baseUrl}${INVITE_PATH}/${token}`, replacedEarlier: replaced.length > 0 };
  });
}

type InvitationRow = typeof staffInvitations.$inferSelect;

async function auditWithdrawal(tx: Queryable, audit: StaffAudit, row: InvitationRow): Promise<void> {
  await auditStaffChange(tx, audit, 'staff.cancel-invitation', row.id, { email: row.email, role: row.role, expiresAt: toIso(row.expiresAt) }, null);
}

export type PendingInvitation = { id: string; email: string; role: StaffRole; invitedBy: string | null; createdAt: string; expiresAt: string };

/**
 * The invitations whose links still work, soonest to expire first. An expired one is left out rather than
 * listed as expired: its link opens nothing, and inviting the e-mail again is the way on. Who invited is
 * the name on the invitation's audit entry, which the invitation is written with.
 */
export async function listPendingInvitations(db: Db, now: Date): Promise<PendingInvitation[]> {
  const rows = await db.select({ row: staffInvitations, invitedBy: auditEntries.actorName }).from(staffInvitations)
    .leftJoin(auditEntries, and(eq(auditEntries.targetId, staffInvitations.id), eq(auditEntries.tool, 'staff.invite')))
    .where(isPending(now)).orderBy(asc(staffInvitations.expiresAt), asc(staffInvitations.email));
  return rows.map(({ row, invitedBy }) => ({
    id: row.id, email: row.email, role: row.role, invitedBy, createdAt: toIso(row.createdAt), expiresAt: toIso(row.expiresAt),
  }));
}

/**
 * Withdraws a pending invitation: its link answers that it is no longer valid from now on. One that was used,
 * has expired or was withdrawn already is not found, so the owner sees the list as it is now.
 */
export async function cancelInvitation(db: Db, id: string, audit: StaffAudit): Promise<Pick<PendingInvitation, 'id' | 'email' | 'role' | 'expiresAt'>> {
  return db.transaction(async (tx) => {
    const [row] = await tx.update(staffInvitations).set({ cancelledAt: audit.at })
      .where(and(eq(staffInvitations.id, id), isPending(audit.at))).returning();
    if (!row) throw new ToolError('not_found', 'No such invitation is waiting: it was used, has expired or was withdrawn already.');
    await auditWithdrawal(tx, audit, row);
    return { id: row.id, email: row.email, role: row.role, expiresAt: toIso(row.expiresAt) };
  });
}

export type ClosedState = 'used' | 'cancelled' | 'expired' | 'unknown';

export type InvitationState =
  | { state: 'open'; email: string; role: StaffRole }
  | { state: ClosedState };

/** What the link opens: the form while it is pending, otherwise why not. */
export async function invitationState(db: Db, token: string, now: Date): Promise<InvitationState> {
  const [row] = await db.select().from(staffInvitations).where(eq(staffInvitations.tokenHash, hashOf(token)));
  if (!row) return { state: 'unknown' };
  if (row.usedAt) return { state: 'used' };
  if (row.cancelledAt) return { state: 'cancelled' };
  if (row.expiresAt <= now) return { state: 'expired' };
  return { state: 'open', email: row.email, role: row.role };
}

/**
 * Creates the invited person's account with their password, once. The password is checked before anything
 * is used up, so a short one keeps the link. Marking the invitation used and creating the account are one
 * transaction: two tabs posting the same link at once find one of them has already used it.
 */
export async function acceptInvitation(db: Db, input: { token: string; password: string; now: Date }): Promise<StaffMember> {
  const passwordHash = await hashPassword(StaffPassword.parse(input.password));
  const state = await invitationState(db, input.token, input.now);
  if (state.state !== 'open') throw new ToolError('not_found', closedDetail(state.state));
  return db.transaction(async (tx) => {
    const [used] = await tx.update(staffInvitations).set({ usedAt: input.now })
      .where(and(eq(staffInvitations.tokenHash, hashOf(input.token)), isPending(input.now)))
      .returning();
    if (!used) throw new ToolError('not_found', closedDetail('used'));
    const [row] = await tx.insert(staff).values({ email: used.email, role: used.role, passwordHash, lastSignInAt: input.now })
      .onConflictDoNothing({ target: staff.email }).returning();
    if (!row) throw new ToolError('already_exists', `${used.email} already has an account: sign in instead.`);
    const member = describeStaff(row);
    await auditStaffChange(tx, { actor: staffActor(member), channel: 'admin', at: input.now }, 'staff.accept-invitation', row.id, null, { email: row.email, role: row.role });
    return member;
  });
}

export function closedDetail(state: ClosedState): string {
  switch (state) {
    case 'used': return 'This invitation link was used already.';
    case 'cancelled': return 'This invitation is no longer valid: the shop owner withdrew it, or made a newer link for the same e-mail.';
    case 'expired': return 'This invitation is no longer valid: its link worked for 24 hours, and that time is over.';
    case 'unknown': return 'This invitation link is not right.';
  }
}
