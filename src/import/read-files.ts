import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { z } from 'zod';
import { IMPORT_FILES, isImportFile } from './files.ts';
import type { ImportFileName, ImportRows } from './files.ts';

/** Where a file cannot be taken as it is: `products.csv:4: price: must be above 0`. */
export type ImportProblem = { file: string; line: number; message: string };

export type ReadResult = {
  rows: ImportRows;
  /** Files given or found in a directory whose name `butik import` does not know. */
  skipped: string[];
  problems: ImportProblem[];
  /** The path each known file was read from, by file name. */
  files: Map<string, string>;
};

/** The files the arguments name: each directory's files (not its subdirectories) and each file itself. */
function expand(paths: readonly string[]): string[] {
  return paths.flatMap((path) => (statSync(path).isDirectory()
    ? readdirSync(path).sort().map((name) => join(path, name)).filter((file) => statSync(file).isFile())
    : [path]));
}

/** A file to read: the path it is reported by (its base name says which file it is) and its bytes, read when needed. */
export type ImportSource = { path: string; content(): Buffer | string };

/** Reads and checks every known file completely; nothing is written here, so a problem costs nothing. */
export function readImportFiles(paths: readonly string[]): ReadResult {
  return readImportSources(expand(paths).map((path) => ({ path, content: () => readFileSync(path) })));
}

/** The same for files that are already in memory, such as the console's upload. */
export function readImportSources(sources: readonly ImportSource[]): ReadResult {
  const rows = Object.fromEntries(Object.keys(IMPORT_FILES).map((name) => [name, []])) as unknown as ImportRows;
  const skipped: string[] = [];
  const problems: ImportProblem[] = [];
  const seen = new Map<string, string>();
  for (const source of sources) {
    const { path } = source;
    const name = basename(path);
    if (!isImportFile(name)) {
      skipped.push(path);
      continue;
    }
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      problems.push({ file: path, line: 1, message: `${name} is given twice (also ${earlier}); give each file once` });
      continue;
    }
    seen.set(name, path);
    readOne(name, source, rows, problems);
  }
  return { rows, skipped, problems, files: seen };
}

function readOne(name: ImportFileName, source: ImportSource, rows: ImportRows, problems: ImportProblem[]): void {
  const { path } = source;
  const schema: z.ZodObject = IMPORT_FILES[name];
  let header: string[] = [];
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(source.content(), {
      bom: true,
      columns: (names: string[]) => (header = names.map((column) => column.trim())),
      skip_empty_lines: true,
      // A quote inside an unquoted cell is text, as Python's csv module reads it: ["bouquet_roses"].
      relax_quotes: true,
      info: true,
    });
  } catch (error) {
    const line = typeof error === 'object' && error !== null && 'lines' in error && typeof error.lines === 'number' ? error.lines : 1;
    problems.push({ file: path, line, message: error instanceof Error ? error.message : String(error) });
    return;
  }
  const missing = requiredColumns(schema).filter((column) => !header.includes(column));
  if (missing.length > 0) {
    problems.push({ file: path, line: 1, message: `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` });
    return;
  }
  const target = rows[name] as Array<{ line: number; row: unknown }>;
  for (const { record, info } of records) {
    const parsed = schema.safeParse(record);
    if (parsed.success) {
      target.push({ line: info.lines, row: parsed.data });
      continue;
    }
    for (const issue of parsed.error.issues) {
      const column = issue.path.join('.');
      problems.push({ file: path, line: info.lines, message: column ? `${column}: ${issue.message}` : issue.message });
    }
  }
}

/** The columns a file must have: those whose cell may not be left out. */
function requiredColumns(schema: z.ZodObject): string[] {
  return Object.entries(schema.shape).filter(([, column]) => !column.safeParse(undefined).success).map(([name]) => name);
}
