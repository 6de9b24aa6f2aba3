import { z } from 'zod';
import { addStaff, listStaff, removeStaff, resetStaffPassword, StaffEmail, StaffPassword, StaffRoleInput } from '../access/staff.ts';
import { endStaffSessions } from '../access/staff-sessions.ts';
import { defineCommand } from './command.ts';

/** `butik staff …`: the people who sign in at /admin. A new password signs the person out everywhere. */
export const staffCommands = [
  defineCommand({
    name: 'staff.add',
    input: z.strictObject({ email: StaffEmail, role: StaffRoleInput, password: StaffPassword }),
    run: (db, input) => addStaff(db, input),
  }),
  defineCommand({
    name: 'staff.list',
    input: z.strictObject({}),
    run: (db) => listStaff(db),
  }),
  defineCommand({
    name: 'staff.remove',
    input: z.strictObject({ email: StaffEmail }),
    run: (db, input) => removeStaff(db, input.email),
  }),
  defineCommand({
    name: 'staff.reset-password',
    input: z.strictObject({ email: StaffEmail, password: StaffPassword }),
    run: (db, input) => resetStaffPassword(db, input.email, input.password, (staffId) => endStaffSessions(db, staffId)),
  }),
];
