import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where the embedded PostgreSQL cluster lives inside Butik's data directory. */
export function embeddedClusterDir(dataDir: string): string {
  return join(dataDir, 'pgdata');
}

/** Whether the cluster has been created: PostgreSQL writes PG_VERSION when it initialises one. */
export function embeddedClusterExists(dataDir: string): boolean {
  return existsSync(join(embeddedClusterDir(dataDir), 'PG_VERSION'));
}
