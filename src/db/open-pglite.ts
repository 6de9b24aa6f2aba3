import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { listenOnPglite } from './change-feed.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { Database, Db } from './client.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { embeddedClusterDir } from './embedded-cluster.ts';
import { chooseEngineCompiler, DEFAULT_EMBEDDED_MEMORY_BYTES, embeddedStartParams } from './embedded-settings.ts';
import { createPrivateDir, restrictToOwner } from './data-dir-mode.ts';
import { migrationsFolder } from './migrations-folder.ts';
import { attachReadCache } from './read-cache.ts';

/** Set by bin/butik.js, which starts compiling the engine before the rest of Butik loads (bin/embedded-engine.js). */
const EARLY_ENGINE = Symbol.for('butik.embedded-engine');

/** The engine compiled early, taken by the first database opened (a second one compiles its own). */
async function takeEarlyEngine(): Promise<WebAssembly.Module | undefined> {
  const early: unknown = Reflect.get(globalThis, EARLY_ENGINE);
  Reflect.deleteProperty(globalThis, EARLY_ENGINE);
  const compiled: unknown = early instanceof Promise ? await early : undefined;
  return compiled instanceof WebAssembly.Module ? compiled : undefined;
}

/** The embedded database: in `dataDir` (locked to this process) or, without one, in memory. */
export async function openPglite(dataDir: string | undefined, memoryBytes = DEFAULT_EMBEDDED_MEMORY_BYTES): Promise<Database> {
  let dir: string | undefined;
  let unlock = () => {};
  let loosenedEntries = 0;
  if (dataDir) {
    createPrivateDir(dataDir);
    loosenedEntries = restrictToOwner(dataDir);
    unlock = lockDataDir(dataDir);
    dir = embeddedClusterDir(dataDir);
    createPrivateDir(dir);
  }
  let client: PGlite;
  try {
    chooseEngineCompiler(memoryBytes);
    const pgliteWasmModule = await takeEarlyEngine();
    client = await PGlite.create(dir, {
      ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
      extensions: { pg_trgm },
      startParams: embeddedStartParams(PGlite.defaultStartParams, memoryBytes),
    });
  } catch (error) {
    unlock();
    throw error;
  }
  // A first start has just written the cluster's files 0666; they become the owner's before anything is served.
  if (dataDir) restrictToOwner(dataDir);
  const typed = drizzle(client);
  const db = typed as unknown as Db;
  const cache = attachReadCache(db);
  let feed: ChangeFeed | undefined;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await migrate(typed, { migrationsFolder });
      // Only now do the triggers that feed the cache exist.
      feed ??= await listenOnPglite(client, cache);
    },
    ping: async () => { await client.query('select 1'); },
    close: async () => {
      await feed?.stop();
      await client.close().finally(unlock);
    },
    loosenedEntries,
  };
}
