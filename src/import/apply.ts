import type { Db } from '../db/client.ts';
import { importCurrency, importDiscounts, importProducts, importSearchWords } from './catalog.ts';
import type { ImportRows } from './files.ts';
import type { ImportProblem, ReadResult } from './read-files.ts';
import { ImportRun } from './run.ts';
import type { ImportCounts, Importer } from './run.ts';
import { importCustomers, importPromotions, importShippingRates } from './shipping-and-buyers.ts';

export type { ImportCounts } from './run.ts';

export type ImportOptions = {
  /** ISO 4217; sets the shop currency in the same transaction. */
  currency?: string;
  /** Category slug for products whose row names none; default `uncategorized`. */
  category?: string;
  dryRun: boolean;
  now: Date;
  /** Whom the audit entries name; the command line by default. */
  by?: Importer;
};

/** The import could not be written as given; the transaction rolled back and nothing changed. */
export class ImportRejected extends Error {
  constructor(readonly problems: ImportProblem[]) {
    super(`${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written`);
  }
}

/** Carries a dry run's counts out of the transaction it rolls back. */
class DryRunDone extends Error {
  constructor(readonly counts: ImportCounts) {
    super('dry run');
  }
}

const DEFAULT_CATEGORY = 'uncategorized';

/**
 * Writes every row in one transaction, each upserted by its natural key (SKU, code, id), so a second run of the
 * same files changes nothing. Products, categories, discounts and the currency are audited like the tools that
 * change them, so audit.revert can undo an import row by row. Any problem rolls everything back.
 */
export async function applyImport(db: Db, rows: ImportRows, options: ImportOptions): Promise<ImportCounts> {
  try {
    return await db.transaction(async (tx) => {
      const run = new ImportRun(tx, options.now, options.by);
      if (options.currency !== undefined) await importCurrency(run, options.currency);
      await importProducts(run, rows, options.category ?? DEFAULT_CATEGORY);
      await importDiscounts(run, rows['discounts.csv']);
      await importShippingRates(run, rows['shipping_rates.csv']);
      await importPromotions(run, rows['promotions.csv']);
      await importCustomers(run, rows['customers.csv'], rows['addresses.csv']);
      await importSearchWords(run, rows['search_words.csv']);
      if (run.problems.length > 0) throw new ImportRejected(run.problems);
      if (options.dryRun) throw new DryRunDone(run.counts);
      return run.counts;
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.counts;
    throw error;
  }
}

/** What an import did or, on a dry run, would do: nothing was written when there are problems. */
export type ImportReport = { dryRun: boolean; skipped: string[]; problems: ImportProblem[]; counts: ImportCounts | null };

/**
 * Writes files that were read and checked, or lists why it will not: the problems found while reading and
 * those found while writing, each naming the file as it was given. The CLI and the console share it.
 */
export async function importChecked(db: Db, read: ReadResult, options: ImportOptions): Promise<ImportReport> {
  const report = { dryRun: options.dryRun, skipped: read.skipped };
  if (read.problems.length > 0) return { ...report, problems: read.problems, counts: null };
  try {
    return { ...report, problems: [], counts: await applyImport(db, read.rows, options) };
  } catch (error) {
    if (!(error instanceof ImportRejected)) throw error;
    return { ...report, problems: error.problems.map((p) => ({ ...p, file: read.files.get(p.file) ?? p.file })), counts: null };
  }
}
