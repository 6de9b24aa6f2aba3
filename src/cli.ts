import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { createKey, listKeys, revokeKey, rotateKey } from './access/api-keys.ts';
import type { KeyAudit } from './access/api-keys.ts';
import { localKeyInvalidation, redisKeyInvalidation } from './access/key-invalidation.ts';
import { SCOPES } from './access/scopes.ts';
import { SETUP_PATH, issueSetupToken } from './access/staff-setup.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createEmbeddedClusterApart } from './embedded-first-start.ts';
import { IMPORT_USAGE, ImportUsageError, parseImportArgs, runImport } from './import/command.ts';
import { runOwnerCommand } from './commands/remote.ts';
import { CreateKeyInput } from './schema/api-key.ts';
import { openConfiguredDatabase, startServer } from './server.ts';
import { STAFF_USAGE, StaffUsageError, runStaffCommand } from './staff-command.ts';
import { retireSigningKey, rotateSigningKey } from './ucp/signatures/signing-keys.ts';

const USAGE = `Usage: butik <command>

  serve                                   start the API (same as npm start)
  migrate                                 apply database migrations and exit
  keys create --name NAME --scopes a,b [--expires ISO]
  keys list
  keys rotate ID
  keys revoke ID
  keys pause NAME|ID                      refuse every call of this key (403 agent_paused) until it is resumed
  keys resume NAME|ID                     let a paused key call again
  import <dir|file.csv>… [--currency CODE] [--category SLUG] [--dry-run]
                                          load products, stock, discounts, shipping rates, promotions and
                                          customers from CSV files (butik import --help)
  oauth list                              applications connected over OAuth, with their grants and live tokens
  oauth revoke CLIENT_ID                  disconnect an application: its client, grants and tokens are deleted
  oauth revoke --grant GRANT_ID           end one grant and every token issued under it
  oauth pause CLIENT_ID                   refuse every call of this application until it is resumed
  oauth resume CLIENT_ID                  let a paused application call again
  policies show                           the policy document: which agents' calls wait for a person's approval
  policies set FILE                       replace it with the JSON document in FILE (checked whole; a bad one changes nothing)
  policies revert ENTRY_ID                put back the document a change replaced (its audit entry id, in Activity)
  approvals list                          held calls, pending first, with agent, tool and exact arguments
  approvals approve ID [--note TEXT]      run a held call as the agent that made it (fails with conflict if its target changed)
  approvals deny ID [--note TEXT]         refuse a held call; the agent sees who and the note
${STAFF_USAGE}
  signing-keys rotate                     UCP: publish a new key, signing from five minutes on; the old ones stay published
  signing-keys retire KID [--compromised] UCP: stop publishing a key seven days after its successor took over
                                          (--compromised: at once)

Configuration comes from the environment (README, "Configuration"). While a server holds the embedded
database, "oauth", "keys pause|resume", "policies" and "approvals" commands run through that server (with the master key from the data directory).`;

async function serve(): Promise<void> {
  const config = loadConfig();
  await createEmbeddedClusterApart(config);
  const server = await startServer(config);
  // One line for people, on stderr so that stdout stays pure JSON log lines.
  const base = server.app.butik.baseUrl;
  console.error(`Butik ready at ${base}  console: ${base}/admin  docs: ${base}/docs  master key: ${server.masterKeySource}`);
  const setupToken = await issueSetupToken(server.database.db, new Date());
  if (setupToken) {
    console.error(`No shop owner yet. Create one within an hour (the link works once): ${base}${SETUP_PATH}?token=${setupToken}`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(() => process.exit(0), (error: unknown) => {
      server.app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

async function migrate(): Promise<void> {
  const database = await openConfiguredDatabase(loadConfig());
  await database.close();
  console.log('migrations applied');
}

type KeysCommand =
  | { action: 'create'; input: z.output<typeof CreateKeyInput> }
  | { action: 'list' }
  | { action: 'rotate' | 'revoke'; id: string };

const FLAG_OF: Record<string, string> = { name: '--name', scopes: '--scopes', expiresAt: '--expires' };

function readFlags(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: { name: { type: 'string' }, scopes: { type: 'string' }, expires: { type: 'string' } },
    });
  } catch (error) {
    // An unknown or malformed flag is a usage error (exit 2), like any other.
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
}

/** Reads `keys …` arguments completely before the database is opened, so a typo costs no start-up. */
function parseKeysCommand(args: string[]): KeysCommand {
  const [action, ...rest] = args;
  const { values, positionals } = readFlags(rest);
  switch (action) {
    case 'create': {
      const scopes = (values.scopes ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const parsed = CreateKeyInput.safeParse({
        name: values.name,
        scopes,
        ...(values.expires ? { expiresAt: values.expires } : {}),
      });
      if (!parsed.success) {
        throw new UsageError(parsed.error.issues.map((issue) => {
          const [field, index] = issue.path;
          const flag = FLAG_OF[String(field)] ?? String(field);
          if (field === 'scopes' && typeof index === 'number') {
            return `${flag}: unknown scope "${scopes[index]}"; known scopes: ${SCOPES.join(', ')}`;
          }
          return `${flag}: ${issue.message}`;
        }).join('\n'));
      }
      return { action, input: parsed.data };
    }
    case 'list':
      return { action };
    case 'rotate':
    case 'revoke':
      return { action, id: requireId(action, positionals) };
    default:
      throw new UsageError(USAGE);
  }
}

async function keys(args: string[]): Promise<void> {
  const [action, name] = args;
  if (action === 'pause' || action === 'resume') return pauseKey(action, name);
  const command = parseKeysCommand(args);
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  // Running servers drop a rotated or revoked key from their caches at once when they share a Redis.
  const invalidation = config.redisUrl
    ? redisKeyInvalidation({ url: config.redisUrl, prefix: config.redisPrefix, log: cliLog })
    : localKeyInvalidation;
  const announced: Array<Promise<void>> = [];
  const changed = (keyId: string) => { announced.push(invalidation.publish(keyId)); };
  const byCli = (): KeyAudit => ({ actor: { kind: 'cli' }, channel: 'cli', at: new Date() });
  try {
    switch (command.action) {
      case 'create': {
        const { name, scopes, expiresAt } = command.input;
        const key = await createKey(database.db, { name, scopes, expiresAt: expiresAt ? new Date(expiresAt) : undefined }, byCli());
        console.log(JSON.stringify(key, null, 2));
        console.error('Store the key now: it is shown only once.');
        return;
      }
      case 'list':
        console.log(JSON.stringify(await listKeys(database.db), null, 2));
        return;
      case 'rotate':
        console.log(JSON.stringify(await rotateKey(database.db, command.id, byCli(), changed), null, 2));
        console.error('Store the new key now: it is shown only once; the old one no longer works.');
        return;
      case 'revoke':
        console.log(JSON.stringify(await revokeKey(database.db, command.id, byCli(), changed), null, 2));
        return;
    }
  } finally {
    await Promise.all(announced);
    await invalidation.close();
    await database.close();
  }
}

/** `keys pause|resume NAME`: an owner command, so it also works beside a running server on the embedded database. */
async function pauseKey(action: 'pause' | 'resume', key: string | undefined): Promise<void> {
  if (!key) throw new UsageError(`Give the key's name or id: butik keys ${action} NAME`);
  const config = loadConfig();
  const result = await runOwnerCommand(config, `keys.${action}`, { key }, () => openConfiguredDatabase(config));
  console.log(JSON.stringify(result, null, 2));
}

/** The UCP signing keys (docs/ucp.md#signing-keys): rotation adds a key, retiring one takes it out of /.well-known/ucp. */
async function signingKeys(args: string[]): Promise<void> {
  const [action, kid, flag] = args;
  if (action !== 'rotate' && action !== 'retire') throw new UsageError(USAGE);
  if (flag !== undefined && flag !== '--compromised') throw new UsageError(USAGE);
  if (action === 'retire' && !kid) throw new UsageError('Give the key id: butik signing-keys retire KID');
  const database = await openConfiguredDatabase(loadConfig());
  try {
    if (action === 'rotate') {
      console.log(JSON.stringify({ kid: await rotateSigningKey(database.db) }));
      return;
    }
    const retirement = await retireSigningKey(database.db, kid ?? '', new Date(), { compromised: flag === '--compromised' });
    if (!retirement.retired) {
      console.error(retirement.reason);
      process.exitCode = 1;
      return;
    }
    console.log(JSON.stringify({ retired: kid }));
  } finally {
    await database.close();
  }
}

function readOAuthFlags(args: string[]) {
  try {
    return parseArgs({ args, allowPositionals: true, options: { grant: { type: 'string' } } });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
}

/** `oauth list|revoke|pause|resume`: the owner's view of connected applications, also while `serve` holds the database. */
async function oauth(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = readOAuthFlags(rest);
  const [clientId] = positionals;
  const invocation = action === 'list' ? { name: 'oauth.list', input: {} }
    : action === 'revoke' && values.grant ? { name: 'oauth.revoke-grant', input: { grantId: values.grant } }
      : action === 'revoke' && clientId ? { name: 'oauth.revoke-client', input: { clientId } }
        : (action === 'pause' || action === 'resume') && clientId ? { name: `oauth.${action}`, input: { clientId } }
          : undefined;
  if (!invocation) {
    throw new UsageError(action === 'revoke' ? 'Give the client id or --grant GRANT_ID: butik oauth revoke CLIENT_ID'
      : action === 'pause' || action === 'resume' ? `Give the client id: butik oauth ${action} CLIENT_ID` : USAGE);
  }
  const config = loadConfig();
  const result = await runOwnerCommand(config, invocation.name, invocation.input, () => openConfiguredDatabase(config));
  console.log(JSON.stringify(result, null, 2));
}

/** `policies show|set FILE|revert ENTRY_ID`: the owner's rules over agents' calls, also while `serve` holds the database. */
async function policies(args: string[]): Promise<void> {
  const [action, argument] = args;
  if (action === 'set' && !argument) throw new UsageError('Give the file: butik policies set FILE');
  if (action === 'revert' && !argument) throw new UsageError('Give the audit entry id: butik policies revert ENTRY_ID');
  const invocation = action === 'show' ? { name: 'policies.show', input: {} }
    : action === 'set' && argument ? { name: 'policies.set', input: { document: readFileSync(argument, 'utf8') } }
      : action === 'revert' && argument ? { name: 'policies.revert', input: { entryId: argument } }
        : undefined;
  if (!invocation) throw new UsageError(USAGE);
  await printOwnerCommand(invocation);
}

/** `approvals list|approve ID|deny ID [--note TEXT]`: a person decides an agent's held call. */
async function approvals(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({ args: rest, options: { note: { type: 'string' } }, allowPositionals: true });
  const [id] = positionals;
  const note = values.note === undefined ? {} : { note: values.note };
  if ((action === 'approve' || action === 'deny') && !id) throw new UsageError(`Give the approval id: butik approvals ${action} ID`);
  const invocation = action === 'list' ? { name: 'approvals.list', input: {} }
    : (action === 'approve' || action === 'deny') && id ? { name: `approvals.${action}`, input: { id, ...note } }
      : undefined;
  if (!invocation) throw new UsageError(USAGE);
  await printOwnerCommand(invocation);
}

async function printOwnerCommand(invocation: { name: string; input: unknown }): Promise<void> {
  const config = loadConfig();
  const result = await runOwnerCommand(config, invocation.name, invocation.input, () => openConfiguredDatabase(config));
  console.log(JSON.stringify(result, null, 2));
}

async function importFiles(args: string[]): Promise<void> {
  if (args.includes('--help')) {
    console.log(IMPORT_USAGE);
    return;
  }
  const command = parseImportArgs(args);
  const database = await openConfiguredDatabase(loadConfig());
  try {
    const output = await runImport(database.db, command, new Date());
    for (const line of output.stderr) console.error(line);
    for (const line of output.stdout) console.log(line);
    process.exitCode = output.exitCode;
  } finally {
    await database.close();
  }
}

const cliLog = {
  info: () => {},
  warn: (_object: object, message?: string) => console.error(message ?? ''),
  error: (_object: object, message?: string) => console.error(message ?? ''),
};

class UsageError extends Error {}

function requireId(action: string, positionals: string[]): string {
  const [id] = positionals;
  if (!id) throw new UsageError(`Give the key id: butik keys ${action} ID`);
  return id;
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve();
      case 'migrate':
        return await migrate();
      case 'keys':
        return await keys(args);
      case 'import':
        return await importFiles(args);
      case 'signing-keys':
        return await signingKeys(args);
      case 'oauth':
        return await oauth(args);
      case 'policies':
        return await policies(args);
      case 'approvals':
        return await approvals(args);
      case 'staff':
        return await runStaffCommand(loadConfig(), args);
      case undefined:
      case 'help':
      case '--help':
        console.log(USAGE);
        return;
      default:
        console.error(`unknown command "${command}"\n\n${USAGE}`);
        process.exitCode = 2;
    }
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError || error instanceof ImportUsageError || error instanceof StaffUsageError) {
      console.error(error.message);
      process.exitCode = 2;
      return;
    }
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
