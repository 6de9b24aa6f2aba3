import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded data directory holds everything: the master key, live OAuth tokens and signing keys in the
 * database files and their WAL. It is the owner's alone: directories 0700, files 0600. PGlite does not see to
 * that itself (its first start writes the cluster's files 0666, whatever the umask), so Butik creates the
 * directory 0700 and takes group and other bits off everything in it.
 */
export function createPrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Takes the group and other permission bits off `dir` and everything under it; answers how many it changed. */
export function restrictToOwner(dir: string): number {
  let changed = 0;
  // An explicit stack: the walk must not recurse over a directory tree of any depth.
  const pending = [dir];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) pending.push(...readdirSync(path).map((name) => join(path, name)));
    if ((stat.mode & 0o077) !== 0) {
      chmodSync(path, stat.mode & 0o700);
      changed += 1;
    }
  }
  return changed;
}
