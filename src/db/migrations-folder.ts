import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** drizzle/ of the checkout this code runs from: the nearest above this module (src/db/, or the bundle in dist/). */
function findMigrationsFolder(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const folder = join(dir, 'drizzle');
    if (existsSync(join(folder, 'meta', '_journal.json'))) return folder;
    if (dirname(dir) === dir) throw new Error(`no drizzle/ migrations folder above ${from}`);
  }
}

/** The committed migrations both drivers apply. */
export const migrationsFolder = findMigrationsFolder(dirname(fileURLToPath(import.meta.url)));
