import type { ToolContext } from '../context.ts';
import { ToolError } from '../errors/tool-error.ts';
import { currentVersion } from '../shop/record-version.ts';
import type { VersionedTable } from '../shop/record-version.ts';

export type VersionedRecord = {
  table: VersionedTable;
  id: string;
  /** The read tool whose ETag the caller sends back, named in the refusal. */
  readTool: string;
  /** The record as that read tool answers it, for the refusal's `current`. */
  current(): Promise<unknown>;
};

/**
 * A conditional write's check (docs/behaviour.md#no-lost-updates): inside the write's transaction, lock the row and
 * compare its version with the caller's If-Match before anything is written, so no other write can slip in between.
 * Without If-Match it does nothing.
 */
export async function requireVersion(ctx: ToolContext, record: VersionedRecord): Promise<void> {
  if (ctx.ifMatch === undefined) return;
  const version = await currentVersion(ctx.db, record.table, record.id, { lock: true });
  if (version !== undefined && ctx.ifMatch.includes(version)) return;
  throw new ToolError('precondition_failed',
    `The record changed since the version you sent in If-Match was read; nothing was written. Read it again with ${record.readTool}.`,
    { current: await record.current() });
}
