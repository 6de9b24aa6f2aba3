import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseOpenError } from './open-error.ts';

/** The embedded data directory is held by another live process (`owner`); a CLI may go through its HTTP server. */
export class DataDirInUseError extends DatabaseOpenError {
  override name = 'DataDirInUseError';
  constructor(message: string, readonly dir: string, readonly owner: number) {
    super(message);
  }
}

/**
 * The embedded database is one process's: PGlite keeps the cluster in memory and writes it back, so a second
 * process on the same directory (another `serve`, or `butik keys create` beside a running server) would write
 * over the first one's work. A lock file naming the owner's pid keeps the second one out; a lock whose pid is
 * no longer alive was left by a crash and is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, 'butik.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if (!isCode(error, 'EEXIST')) throw error;
      const owner = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DataDirInUseError(
          `The embedded database in ${dir} is in use by process ${owner} (a running "butik serve"?). `
          + 'Stop that process first, use the HTTP routes of the running server (e.g. POST /api/v1/keys), '
          + 'or run several processes on PostgreSQL (DATABASE_URL).',
          dir,
          owner,
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new DatabaseOpenError(`Could not lock the embedded database in ${dir}: ${path} keeps reappearing.`);
}

const ADDRESS_FILE = 'server.url';

/**
 * Writes where the server holding `dir` listens, so that a CLI command refused the directory can reach the same
 * database through it. Owner-only, like the lock; the returned function removes it again on close.
 */
export function recordServerAddress(dir: string, url: string): () => void {
  const path = join(dir, ADDRESS_FILE);
  writeFileSync(path, `${url}\n`, { mode: 0o600 });
  return () => rmSync(path, { force: true });
}

/** The address recorded by the server that holds `dir`, if it recorded one. */
export function readServerAddress(dir: string): string | undefined {
  const path = join(dir, ADDRESS_FILE);
  if (!existsSync(path)) return undefined;
  const url = readFileSync(path, 'utf8').trim();
  return URL.canParse(url) ? url : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return isCode(error, 'EPERM');
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
