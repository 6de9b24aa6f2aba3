import { isDeepStrictEqual } from 'node:util';
import { appendAudit } from '../access/audit-log.ts';
import type { Actor } from '../access/actor.ts';
import type { Channel } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import type { ImportFileName } from './files.ts';
import { BATCH_ROWS, giveWay } from './pace.ts';
import type { ImportProblem } from './read-files.ts';

export type Outcome = 'created' | 'updated' | 'unchanged';
export type ImportCounts = Partial<Record<ImportFileName | 'categories' | 'currency', Record<Outcome, number>>>;

/** Who imports and how it arrived: the CLI on its own, or an owner in the console. */
export type Importer = { actor: Actor; channel: Channel };

export const CLI_IMPORTER: Importer = { actor: { kind: 'cli' }, channel: 'cli' };

/** The stored values that differ from the wanted ones; jsonb arrays and objects compare by content. */
export function changedValues<T extends Record<string, unknown>>(stored: Record<string, unknown>, wanted: T): Partial<T> {
  return Object.fromEntries(Object.entries(wanted).filter(([field, value]) => !isDeepStrictEqual(stored[field], value))) as Partial<T>;
}

/** One import inside its transaction: what it found wrong, what it counted, and how it audits. */
export class ImportRun {
  readonly problems: ImportProblem[] = [];
  readonly counts: ImportCounts = {};
  private rowsSinceTurn = 0;

  constructor(readonly db: Queryable, readonly now: Date, readonly by: Importer = CLI_IMPORTER) {}

  count(kind: keyof ImportCounts, outcome: Outcome): void {
    const tally = this.counts[kind] ?? { created: 0, updated: 0, unchanged: 0 };
    tally[outcome] += 1;
    this.counts[kind] = tally;
  }

  problem(file: ImportFileName, line: number, message: string): void {
    this.problems.push({ file, line, message });
  }

  /** An audit entry as the tools write them, by the importer under the tool name `import`, so audit.revert undoes it. */
  audit(targetType: string, targetId: string, before: unknown, after: unknown): Promise<string> {
    return appendAudit(this.db, {
      record: { targetType, targetId, before, after }, actor: this.by.actor, channel: this.by.channel, tool: 'import', at: this.now,
    });
  }

  /** Called once a row: every BATCH_ROWS rows the import gives the event loop back to other requests. */
  async pace(): Promise<void> {
    this.rowsSinceTurn += 1;
    if (this.rowsSinceTurn < BATCH_ROWS) return;
    this.rowsSinceTurn = 0;
    await giveWay();
  }

  /** Rows no tool changes, so nothing to audit: insert, update what differs, or leave alone. */
  async upsertPlain<T extends Record<string, unknown>>(
    existing: Record<string, unknown> | undefined,
    wanted: T,
    write: { insert(): PromiseLike<unknown>; update(changes: Partial<T>): PromiseLike<unknown> },
  ): Promise<Outcome> {
    if (!existing) {
      await write.insert();
      return 'created';
    }
    const changes = changedValues(existing, wanted);
    if (Object.keys(changes).length === 0) return 'unchanged';
    await write.update(changes);
    return 'updated';
  }
}
