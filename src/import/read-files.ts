import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse';
import type { Options } from 'csv-parse';
import type { z } from 'zod';
import { IMPORT_FILES, isImportFile } from './files.ts';
import type { ImportFileName, ImportRows } from './files.ts';
import { BATCH_ROWS, giveWay } from './pace.ts';

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
export function readImportFiles(paths: readonly string[]): Promise<ReadResult> {
  return readImportSources(expand(paths).map((path) => ({ path, content: () => readFileSync(path) })));
}

/** The same for files that are already in memory, such as the console's upload. */
export async function readImportSources(sources: readonly ImportSource[]): Promise<ReadResult> {
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
    await readOne(name, source, rows, problems);
  }
  return { rows, skipped, problems, files: seen };
}

type Parsed = { record: Record<string, string>; info: { lines: number } };

/** Bytes parsed between two turns of the event loop: a few milliseconds of csv-parse's work. */
const PARSE_CHUNK_BYTES = 64 * 1024;

/** csv-parse fed a piece at a time, giving way between pieces, so a large file does not hold the process. */
async function parseInTurns(content: Buffer | string, options: Options): Promise<Parsed[]> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const parser = parse(options);
  const records: Parsed[] = [];
  parser.on('readable', () => {
    for (let record: Parsed | null = parser.read(); record !== null; record = parser.read()) records.push(record);
  });
  const done = finished(parser);
  // A parse error rejects it while the loop below still gives way; it is awaited (and thrown) after the loop.
  done.catch(() => undefined);
  for (let start = 0; start < bytes.length && !parser.destroyed; start += PARSE_CHUNK_BYTES) {
    parser.write(bytes.subarray(start, start + PARSE_CHUNK_BYTES));
    await giveWay();
  }
  parser.end();
  await done;
  return records;
}

async function readOne(name: ImportFileName, source: ImportSource, rows: ImportRows, problems: ImportProblem[]): Promise<void> {
  const { path } = source;
  const schema: z.ZodObject = IMPORT_FILES[name];
  let header: string[] = [];
  let records: Parsed[];
  try {
    records = await parseInTurns(source.content(), {
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
  for (const [index, { record, info }] of records.entries()) {
    if (index % BATCH_ROWS === BATCH_ROWS - 1) await giveWay();
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
