import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { addStaff, listStaff, removeStaff, resetStaffPassword, StaffEmail, StaffPassword, StaffRoleInput } from './access/staff.ts';
import { endStaffSessions } from './access/staff-sessions.ts';
import type { StaffRole } from './access/staff-roles.ts';
import { listenUrl } from './config.ts';
import type { Config } from './config.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import type { Db } from './db/client.ts';
import { openConfiguredDatabase } from './server.ts';

export const STAFF_USAGE = `  staff add EMAIL --role owner|manager|viewer
                                          a person who signs in at /admin; the password is read from
                                          stdin (one line) or asked for without echo
  staff list
  staff remove EMAIL
  staff reset-password EMAIL              a new password (as for add); signs the person out everywhere`;

export class StaffUsageError extends Error {}

type StaffCommand =
  | { action: 'add'; email: string; role: StaffRole }
  | { action: 'list' }
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
    case 'add': {
      const role = StaffRoleInput.safeParse(parsed.values.role);
      if (!role.success) throw new StaffUsageError('--role must be owner, manager or viewer');
      return { action, email: email(), role: role.data };
    }
    case 'list':
      return { action };
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

function runDirect(db: Db, command: StaffCommand, password: string | undefined): Promise<unknown> {
  switch (command.action) {
    case 'add':
      return addStaff(db, { email: command.email, role: command.role, password: password ?? '' });
    case 'list':
      return listStaff(db);
    case 'remove':
      return removeStaff(db, command.email);
    case 'reset-password':
      return resetStaffPassword(db, command.email, password ?? '', (staffId) => endStaffSessions(db, staffId));
  }
}

/**
 * While `npm start` holds the embedded database, the command goes through that server's master-key routes
 * instead, with the master key from the environment or the data directory.
 */
async function runThroughServer(config: Config, command: StaffCommand, password: string | undefined): Promise<unknown> {
  const keyFile = join(config.dataDir, 'master.key');
  const masterKey = config.masterKey ?? (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : undefined);
  if (!masterKey) throw new Error(`The server holds ${config.dataDir} but its master key is neither in BUTIK_MASTER_KEY nor in ${keyFile}.`);
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const base = listenUrl(host, config.port);
  const request = (path: string, body?: unknown) => fetch(`${base}/api/v1/staff${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${masterKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const response = await (() => {
    switch (command.action) {
      case 'add':
        return request('', { email: command.email, role: command.role, password });
      case 'list':
        return request('');
      case 'remove':
        return request('/remove', { email: command.email });
      case 'reset-password':
        return request('/reset-password', { email: command.email, password });
    }
  })();
  const answer = await response.json() as { ok?: boolean; result?: unknown; detail?: string; resolution?: string };
  if (!response.ok) throw new Error([answer.detail, answer.resolution].filter(Boolean).join(' '));
  return answer.result;
}

export async function runStaffCommand(config: Config, args: string[]): Promise<void> {
  const command = parseStaffArgs(args);
  const password = await passwordFor(command);
  let result: unknown;
  try {
    const database = await openConfiguredDatabase(config);
    try {
      result = await runDirect(database.db, command, password);
    } finally {
      await database.close();
    }
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    result = await runThroughServer(config, command, password);
  }
  console.log(JSON.stringify(result, null, 2));
}
