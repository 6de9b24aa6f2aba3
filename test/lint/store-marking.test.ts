import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * CI runs every test file once on the embedded database, and only the files named `*.pg.test.ts` again on
 * PostgreSQL and Redis (`npm run test:stores`). A file whose behaviour can differ between the stores must carry
 * that name, or the PostgreSQL side of it would never run. The criterion (docs/architecture.md#tests):
 * - it reads TEST_DATABASE_URL or REDIS_URL itself (it branches on the store, or runs only on one);
 * - it uses a helper whose work depends on the store: spawned `butik` processes on a database of their own
 *   (helpers/process-db.ts), several instances (helpers/instances.ts), a relay that cuts connections
 *   (helpers/tcp-relay.ts);
 * - it races calls against each other (a test title that says "concurrent"/"concurrency"): the embedded
 *   database has one connection and serialises them, so only PostgreSQL exercises the locks.
 * createTestApp/openTestDatabase alone do not count: they give a file a database of its own on either store,
 * and the SQL it runs is the same.
 */
const TEST_ROOT = join(import.meta.dirname, '..');

const STORE_SIGNS: Array<[RegExp, string]> = [
  [/process\.env\.(TEST_DATABASE_URL|REDIS_URL)\b/, 'reads TEST_DATABASE_URL or REDIS_URL'],
  [/from '[./]*\/?helpers\/(process-db|instances|tcp-relay)\.ts'/, 'uses a store-dependent helper (process-db, instances, tcp-relay)'],
];
const RACE_TITLE = /\b(describe|it|test)(\.\w+)*(\([^)]*\))?\(\s*['"`][^'"`]*\bconcurren/i;
// A test app (helpers/app.ts, or a folder's helper that returns one) or a test database of its own.
const OPENS_DATABASE = /\bTestApp\b|\b(createTestApp|listeningTestApp|openTestDatabase)\(/;
const EXEMPT = /^\/\/ store-independent: \S/m;

function storeSigns(source: string): string[] {
  if (EXEMPT.test(source)) return [];
  const signs = STORE_SIGNS.filter(([pattern]) => pattern.test(source)).map(([, reason]) => reason);
  if (RACE_TITLE.test(source) && OPENS_DATABASE.test(source)) signs.push('races calls against each other on a database');
  return signs;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // The lint tests quote the signs themselves.
    if (entry.isDirectory()) return entry.name === 'lint' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('tests whose behaviour depends on the store are marked *.pg.test.ts', () => {
  it('marks every test file that shows a sign of depending on the store', () => {
    const unmarked = testFiles(TEST_ROOT)
      .filter((path) => !path.endsWith('.pg.test.ts'))
      .map((path) => ({ file: relative(TEST_ROOT, path), signs: storeSigns(readFileSync(path, 'utf8')) }))
      .filter(({ signs }) => signs.length > 0);
    expect(unmarked, 'rename these to *.pg.test.ts so CI runs them on PostgreSQL and Redis too').toEqual([]);
  });

  it('recognises each sign', () => {
    expect(storeSigns("const url = process.env.TEST_DATABASE_URL;")).toHaveLength(1);
    expect(storeSigns("describe.runIf(process.env.REDIS_URL)('x', () => {});")).toHaveLength(1);
    expect(storeSigns("import { startInstance } from '../helpers/instances.ts';")).toHaveLength(1);
    expect(storeSigns("import { processDatabase } from './helpers/process-db.ts';")).toHaveLength(1);
    expect(storeSigns("import { relayPostgres } from '../helpers/tcp-relay.ts';")).toHaveLength(1);
    const opens = 'beforeAll(async () => { t = await createTestApp(); });\n';
    expect(storeSigns(`${opens}it('creates one product from ten concurrent calls', async () => {});`)).toHaveLength(1);
    expect(storeSigns(`${opens}describe('Idempotency-Key under concurrency', () => {});`)).toHaveLength(1);
    expect(storeSigns("it('loads once for concurrent first callers', async () => {});")).toEqual([]);
    expect(storeSigns(`// store-independent: the race is in memory\n${opens}it('answers concurrent first requests', () => {});`)).toEqual([]);
    expect(storeSigns("import { createTestApp } from '../helpers/app.ts';\nit('lists products', () => {});")).toEqual([]);
  });

  it('leaves no marked file without a sign, so the PostgreSQL pass stays short', () => {
    const needless = testFiles(TEST_ROOT)
      .filter((path) => path.endsWith('.pg.test.ts') && storeSigns(readFileSync(path, 'utf8')).length === 0)
      .map((path) => relative(TEST_ROOT, path));
    expect(needless).toEqual([]);
  });
});
