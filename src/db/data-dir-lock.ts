import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseOpenError } from './open-error.ts';

/**
 * The embedded database is one process's: PGlite keeps the cluster in memory and writes it back, so a second
 * process on the same directory (another `serve`, or `butik keys create` beside a running server) would write
 * over the first one's work. A lock file naming the owner's pid keeps the second one out; a lock whose pid is
 * no longer alive was left by a crash and is taken over.
 */
/** Another live process holds the data directory: a command can go through that server instead. */
export class DataDirInUseError extends DatabaseOpenError {
  override name = 'DataDirInUseError';
}

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
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new DatabaseOpenError(`Could not lock the embedded database in ${dir}: ${path} keeps reappearing.`);
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
