import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Db } from '../db/client.ts';
import { Slug } from '../schema/common.ts';
import { Currency } from '../shop/settings.ts';
import { importChecked } from './apply.ts';
import type { ImportCounts, ImportOptions } from './apply.ts';
import { IMPORT_FILES } from './files.ts';
import { readImportFiles } from './read-files.ts';

export const IMPORT_USAGE = `butik import <dir|file.csv>… [--currency CODE] [--category SLUG] [--dry-run]

  Loads ${Object.keys(IMPORT_FILES).join(', ')}
  (other files are skipped and listed) in one transaction, upserting by each row's id or code: running it
  again changes nothing. Amounts are minor units of the shop currency (øre, cents). On any problem nothing
  is written and every problem is listed as file:line. --dry-run checks and counts without writing.`;

/** The command line was wrong; nothing was read. */
export class ImportUsageError extends Error {}

export type ImportCommand = { paths: string[]; options: Omit<ImportOptions, 'now'> };

export function parseImportArgs(args: string[]): ImportCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { currency: { type: 'string' }, category: { type: 'string' }, 'dry-run': { type: 'boolean' } },
    });
  } catch (error) {
    throw new ImportUsageError(`${error instanceof Error ? error.message : String(error)}\n\n${IMPORT_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) throw new ImportUsageError(`Give at least one directory or CSV file.\n\n${IMPORT_USAGE}`);
  const missing = positionals.filter((path) => !existsSync(path));
  if (missing.length > 0) throw new ImportUsageError(`No such file or directory: ${missing.join(', ')}`);
  const currency = values.currency?.toUpperCase();
  if (currency !== undefined && !Currency.safeParse(currency).success) {
    throw new ImportUsageError(`--currency: "${values.currency}" is not an ISO 4217 currency code (e.g. DKK, EUR, USD)`);
  }
  if (values.category !== undefined && !Slug.safeParse(values.category).success) {
    throw new ImportUsageError(`--category: "${values.category}" is not a slug (lowercase letters, digits and hyphens)`);
  }
  return {
    paths: positionals,
    options: {
      dryRun: values['dry-run'] === true,
      ...(currency === undefined ? {} : { currency }),
      ...(values.category === undefined ? {} : { category: values.category }),
    },
  };
}

export type ImportOutput = { exitCode: 0 | 1; stdout: string[]; stderr: string[] };

/** Reads, checks and writes; what to print and the exit code come back, so the CLI only prints them. */
export async function runImport(db: Db, command: ImportCommand, now: Date): Promise<ImportOutput> {
  const report = await importChecked(db, await readImportFiles(command.paths), { ...command.options, now });
  const stderr = report.skipped.map((path) => `skipped ${path}: not a file butik import knows`);
  if (report.counts === null) {
    return { exitCode: 1, stdout: [], stderr: [...stderr, ...report.problems.map((p) => `${p.file}:${p.line}: ${p.message}`), 'Nothing was written.'] };
  }
  return { exitCode: 0, stdout: summary(report.counts, command.options.dryRun), stderr };
}

function summary(counts: ImportCounts, dryRun: boolean): string[] {
  const lines = Object.entries(counts).map(([kind, tally]) =>
    `${kind}: ${tally.created} created, ${tally.updated} updated, ${tally.unchanged} unchanged`);
  if (lines.length === 0) lines.push('nothing to import');
  return dryRun ? ['Dry run: nothing was written. It would do this:', ...lines] : lines;
}
