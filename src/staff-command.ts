import { parseArgs } from 'node:util';
import { StaffEmail, StaffPassword, StaffRoleInput } from './access/staff.ts';
import type { StaffRole } from './access/staff-roles.ts';
import type { Config } from './config.ts';
import { runOwnerCommand } from './commands/remote.ts';
import { openConfiguredDatabase } from './server.ts';

export const STAFF_USAGE = `  staff add EMAIL --role owner|manager|viewer
                                          a person who signs in at /admin; the password is read from
                                          stdin (one line) or asked for without echo
  staff invite EMAIL --role owner|manager|viewer
                                          a one-time link (24 hours) where the person sets their own
                                          password; printed once; replaces a waiting
                                          link for the same e-mail
  staff invitations                       the waiting invitations, with their ids
  staff cancel-invitation ID              the link stops working at once
  staff list
  staff role EMAIL --role owner|manager|viewer
                                          a new role; the last owner stays owner
  staff remove EMAIL
  staff reset-password EMAIL              a new password (as for add); signs the person out everywhere`;

export class StaffUsageError extends Error {}

type StaffCommand =
  | { action: 'add' | 'invite' | 'role'; email: string; role: StaffRole }
  | { action: 'list' | 'invitations' }
  | { action: 'cancel-invitation'; id: string }
  | { action: 'remove' | 'reset-password'; email: string };

/** Reads `staff …` arguments completely before anything is opened. A password is never an argument. */
export function parseStaffArgs(args: string[]): StaffCommand {
  const [action, ...rest] = args;
  let parsed;
  try {
    parsed = parseArgs({ args: rest, allowPositionals: true, options: { role: { type: 'string' } } });
  } catch (error) {
    throw new StaffUsageError(error instanceof Error ? error.message : String(error));
  }
  const email = () => {
    const checked = StaffEmail.safeParse(parsed.positionals[0] ?? '');
    if (!checked.success) throw new StaffUsageError(`Give the person's e-mail: butik staff ${action ?? ''} EMAIL`);
    return checked.data;
  };
  switch (action) {
    case 'add':
    case 'invite':
    case 'role': {
      const role = StaffRoleInput.safeParse(parsed.values.role);
      if (!role.success) throw new StaffUsageError('--role must be owner, manager or viewer');
      return { action, email: email(), role: role.data };
    }
    case 'list':
    case 'invitations':
      return { action };
    case 'cancel-invitation': {
      const id = parsed.positionals[0];
      if (!id) throw new StaffUsageError('Give the invitation\'s id (see butik staff invitations): butik staff cancel-invitation ID');
      return { action, id };
    }
    case 'remove':
    case 'reset-password':
      return { action, email: email() };
    default:
      throw new StaffUsageError(`Usage:\n${STAFF_USAGE}`);
  }
}

/** A password from a pipe (its first line), or typed at a terminal without echo. */
async function readPassword(): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    let text = '';
    for await (const chunk of input) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? '';
  }
  process.stderr.write('Password (not shown): ');
  input.setRawMode(true);
  input.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\u0003') return finish(new Error('cancelled'));
        if (char === '\r' || char === '\n') return finish();
        typed = char === '\u007f' ? typed.slice(0, -1) : typed + char;
      }
    };
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    input.on('data', onData);
  });
}

async function passwordFor(command: StaffCommand): Promise<string | undefined> {
  if (command.action !== 'add' && command.action !== 'reset-password') return undefined;
  const checked = StaffPassword.safeParse(await readPassword());
  if (!checked.success) throw new StaffUsageError(checked.error.issues.map((issue) => issue.message).join('\n'));
  return checked.data;
}

/** The command's name and input for the owner-command registry (commands/staff.ts). */
function invocationOf(command: StaffCommand, password: string | undefined): { name: string; input: unknown } {
  switch (command.action) {
    case 'add':
      return { name: 'staff.add', input: { email: command.email, role: command.role, password } };
    case 'invite':
      return { name: 'staff.invite', input: { email: command.email, role: command.role } };
    case 'role':
      return { name: 'staff.set-role', input: { email: command.email, role: command.role } };
    case 'list':
      return { name: 'staff.list', input: {} };
    case 'invitations':
      return { name: 'staff.invitations', input: {} };
    case 'cancel-invitation':
      return { name: 'staff.cancel-invitation', input: { id: command.id } };
    case 'remove':
      return { name: 'staff.remove', input: { email: command.email } };
    case 'reset-password':
      return { name: 'staff.reset-password', input: { email: command.email, password } };
  }
}

/**
 * Runs on the database here, or, while `npm start` holds the embedded database, inside that server through
 * the owner-commands route (commands/remote.ts): the same validation and code either way.
 */
export async function runStaffCommand(config: Config, args: string[]): Promise<void> {
  const command = parseStaffArgs(args);
  const { name, input } = invocationOf(command, await passwordFor(command));
  const result = await runOwnerCommand(config, name, input, () => openConfiguredDatabase(config));
  console.log(JSON.stringify(result, null, 2));
}
