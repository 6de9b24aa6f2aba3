import { readMasterKey } from '../access/master-key.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { DataDirInUseError, readServerAddress } from '../db/data-dir-lock.ts';
import { ownerCommand } from './registry.ts';
import { orderEvents } from '../domain/order-events.ts';
import { paymentRefunds } from '../domain/payment-refunds.ts';
import { resolveBaseUrl } from '../config.ts';
import type { OrderEventHub } from '../context.ts';
import type { ToolRuntime } from '../tools/invoke.ts';

/** A command that failed: its message is for the person at the terminal, and the CLI exits 1. */
export class CommandError extends Error {}

/**
 * Runs an owner command where the database is: opened here when this process may (PostgreSQL, or an embedded
 * directory no one holds), else inside the running server that holds the embedded directory, over its
 * commands route with the master key from the same directory. The result is the same either way.
 */
export async function runOwnerCommand(
  config: Config,
  name: string,
  input: unknown,
  open: () => Promise<Database>,
): Promise<unknown> {
  const command = ownerCommand(name);
  if (!command) throw new CommandError(`no command ${name}`);
  let database: Database;
  try {
    database = await open();
  } catch (error) {
    if (error instanceof DataDirInUseError) return viaServer(config, name, input, error);
    throw error;
  }
  try {
    return await command.execute(database.db, input, { now: new Date(), actor: { kind: 'cli' }, channel: 'cli', runtime: cliRuntime(config, database) });
  } finally {
    await database.close();
  }
}

async function viaServer(config: Config, name: string, input: unknown, refused: DataDirInUseError): Promise<unknown> {
  const address = readServerAddress(refused.dir);
  const masterKey = readMasterKey(config.masterKey, config.dataDir);
  // Without both, there is no server to ask: the refusal says what to do instead.
  if (!address || !masterKey) throw refused;
  let response: Response;
  try {
    response = await fetch(`${address}/api/v1/commands/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    throw new CommandError(`${refused.message} Its server at ${address} does not answer either.`);
  }
  const body = await response.json().catch(() => undefined) as { ok?: boolean; result?: unknown; detail?: string; resolution?: string } | undefined;
  if (!response.ok || body?.ok !== true) {
    throw new CommandError(body?.detail ? `${body.detail}${body.resolution ? ` ${body.resolution}` : ''}`
      : `The server at ${address} answered ${response.status}.`);
  }
  return body.result;
}

/**
 * The runtime a command gets when the CLI opened the database itself (no server holds it). Its order events have
 * no listeners and no processor pays a refund back (a refund of an order paid through one is refused): with UCP on,
 * approve a held order change, or refund such an order, through the console or a running server, whose UCP module hears it.
 */
function cliRuntime(config: Config, database: Database): ToolRuntime {
  const events: OrderEventHub = orderEvents();
  return {
    db: database.db, clock: () => new Date(), baseUrl: resolveBaseUrl(config, config.port), orderEvents: events, paymentRefunds: paymentRefunds(), timeZone: config.admin.timeZone,
    log: { info: () => {}, warn: () => {}, error: (obj, msg) => console.error(msg ?? 'error', obj) },
  };
}
