import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.ts';
import type { Database } from '../../src/db/client.ts';

/**
 * A database for a spawned `butik` process: a PGlite data directory in a temp folder, or, when
 * TEST_DATABASE_URL is set, a fresh PostgreSQL database on that server (dropped again afterwards).
 */
export type ProcessDatabase = {
  /** Environment for the child: BUTIK_DATA_DIR, plus DATABASE_URL on PostgreSQL. */
  env: Record<string, string>;
  dataDir: string;
  kind: 'pglite' | 'postgres';
  /** Opens the same database in the test process; with PGlite only while no child holds it. */
  open(): Promise<Database>;
  drop(): Promise<void>;
};

export async function processDatabase(): Promise<ProcessDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'butik-proc-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    return { env: { BUTIK_DATA_DIR: dataDir }, dataDir, kind: 'pglite', open: () => openDatabase({ dataDir }), drop: async () => removeDir() };
  }
  const name = `butik_p_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { BUTIK_DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dataDir,
    kind: 'postgres',
    open: () => openDatabase({ url: url.toString(), poolSize: 2 }),
    async drop() {
      removeDir();
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
