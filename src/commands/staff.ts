import { z } from 'zod';
import { addStaff, listStaff, removeStaff, resetStaffPassword, setStaffRole, StaffEmail, StaffPassword, StaffRoleInput } from '../access/staff.ts';
import type { StaffAudit } from '../access/staff.ts';
import { cancelInvitation, inviteStaff, listPendingInvitations } from '../access/staff-invitations.ts';
import { endStaffSessions } from '../access/staff-sessions.ts';
import { defineCommand } from './command.ts';
import type { CommandRun } from './command.ts';

const audit = ({ now, actor, channel }: CommandRun): StaffAudit => ({ actor, channel, at: now });

/**
 * `butik staff …` and the console's Staff page: the people who sign in at /admin. Each change is audited with
 * whoever ran it. A new password signs the person out everywhere; the shop's last owner cannot be removed or
 * demoted.
 */
export const staffCommands = [
  defineCommand({
    name: 'staff.add',
    input: z.strictObject({ email: StaffEmail, role: StaffRoleInput, password: StaffPassword }),
    run: (db, input, run) => addStaff(db, input, audit(run)),
  }),
  defineCommand({
    name: 'staff.invite',
    input: z.strictObject({ email: StaffEmail, role: StaffRoleInput }),
    run: (db, input, run) => inviteStaff(db, input, { ...audit(run), baseUrl: run.runtime.baseUrl }),
  }),
  defineCommand({
    name: 'staff.invitations',
    input: z.strictObject({}),
    run: (db, _input, { now }) => listPendingInvitations(db, now),
  }),
  defineCommand({
    name: 'staff.cancel-invitation',
    input: z.strictObject({ id: z.string().trim().min(1).max(100) }),
    run: (db, input, run) => cancelInvitation(db, input.id, audit(run)),
  }),
  defineCommand({
    name: 'staff.list',
    input: z.strictObject({}),
    run: (db) => listStaff(db),
  }),
  defineCommand({
    name: 'staff.set-role',
    input: z.strictObject({ email: StaffEmail, role: StaffRoleInput }),
    run: (db, input, run) => setStaffRole(db, input.email, input.role, audit(run)),
  }),
  defineCommand({
    name: 'staff.remove',
    input: z.strictObject({ email: StaffEmail }),
    run: (db, input, run) => removeStaff(db, input.email, audit(run)),
  }),
  defineCommand({
    name: 'staff.reset-password',
    input: z.strictObject({ email: StaffEmail, password: StaffPassword }),
    run: (db, input, run) => resetStaffPassword(db, input.email, input.password, (staffId) => endStaffSessions(db, staffId), audit(run)),
  }),
];
