import type { FastifyInstance } from 'fastify';
import { resolveMasterKey } from './access/master-key.ts';
import { listenUrl, resolveBaseUrl } from './config.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { recordServerAddress } from './db/data-dir-lock.ts';
import type { Database } from './db/client.ts';
import { seedDemoStore } from './seed/demo.ts';
import { purgeIdempotencyKeys, releaseOrphanedClaims } from './calls/idempotency.ts';
import { expireApprovals } from './policies/approvals.ts';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export type RunningServer = {
  app: FastifyInstance;
  database: Database;
  url: string;
  /** Where the master key comes from: the file it was generated into, or the environment. */
  masterKeySource: string;
  close(): Promise<void>;
};

export async function openConfiguredDatabase(config: Config): Promise<Database> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.db.statementTimeoutMs,
    acquireTimeoutMs: config.db.acquireTimeoutMs,
    embeddedMemoryBytes: config.embeddedMemoryBytes,
  });
  await database.migrate();
  if (database.kind === 'pglite') await releaseOrphanedClaims(database.db);
  return database;
}

/** Opens the database, migrates, listens, seeds an empty store. `butik serve` and `npm start`. */
export async function startServer(config: Config): Promise<RunningServer> {
  const database = await openConfiguredDatabase(config);
  const master = resolveMasterKey(config.masterKey, config.dataDir);
  // Loaded here, not at the top: the CLI's offline commands (keys, import, migrate) open the database through
  // this module and need none of the HTTP stack. Not before the database opens either: loading both at once
  // left the idle process 7 MB larger (168 → 175 MB) and saved no CPU time.
  const { buildApp } = await import('./app.ts');
  const app = buildApp({ config, database, masterKey: master.key });
  // With PORT=0 the base URL (problem types, the demo seed's image URLs) is known only once listening.
  // Requests that arrive before the seed is written wait for it instead of seeing an empty store.
  let seeded = false;
  let open = () => {};
  const started = new Promise<void>((resolve) => { open = () => { seeded = true; resolve(); }; });
  app.addHook('onRequest', (_request, _reply, done) => {
    if (seeded) done();
    else void started.then(() => done());
  });
  let port: number;
  try {
    if (master.generatedAt) app.log.info({ path: master.generatedAt }, 'master key file (BUTIK_MASTER_KEY is not set)');
    if (database.loosenedEntries) {
      app.log.warn({ dataDir: config.dataDir, entries: database.loosenedEntries },
        'the embedded data directory was readable by other local users; it is now the owner\'s alone (directories 0700, files 0600)');
    }
    // A Redis that is down does not stop the start: counters stay in memory until it answers, the Redis
    // client has logged why, and "butik listening" says rateLimits: "degraded".
    await app.butik.gate.limiter.ready().catch(() => undefined);
    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : config.port;
    if (!config.baseUrl) app.setBaseUrl(resolveBaseUrl(config, port));
    if (config.seed === 'demo' && await seedDemoStore(database.db, { baseUrl: app.butik.baseUrl })) app.log.info('seeded the demo store');
  } catch (error) {
    open();
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
  open();
  // Idempotency keys are kept at least 24 h (docs/behaviour.md#safe-retries); older ones are dropped in the background.
  const purge = setInterval(() => {
    purgeIdempotencyKeys(database.db, new Date()).catch((error: unknown) => app.log.warn({ err: error }, 'idempotency purge failed'));
    // Reads already show a pending approval past its time as expired; this writes it, so the list and counts agree.
    expireApprovals(database.db, new Date()).catch((error: unknown) => app.log.warn({ err: error }, 'approval expiry failed'));
  }, PURGE_INTERVAL_MS);
  purge.unref();
  // The embedded directory is this process's alone: CLI commands refused it go through this server instead.
  const forgetAddress = database.kind === 'pglite' ? recordServerAddress(config.dataDir, listenUrl(localHost(config.host), port)) : () => {};
  app.log.info({ url: app.butik.baseUrl, port, database: database.kind, rateLimits: app.butik.gate.limiter.store() }, 'butik listening');
  let closing: Promise<void> | undefined;
  return {
    app,
    database,
    url: listenUrl(config.host, port),
    masterKeySource: master.generatedAt ?? 'BUTIK_MASTER_KEY',
    close: () => {
      clearInterval(purge);
      forgetAddress();
      return (closing ??= closeWithin(app, config.shutdownGraceMs).then(() => database.close()));
    },
  };
}

/** A CLI on this machine reaches a server that listens on every address through loopback. */
function localHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  return host === '::' ? '::1' : host;
}

/**
 * Stops accepting, lets in-flight requests finish, and after the grace period cuts whatever connections
 * remain (a slow client sending one byte every few seconds would otherwise hold the process open).
 */
async function closeWithin(app: FastifyInstance, graceMs: number): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}
