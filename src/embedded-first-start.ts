import { spawn } from 'node:child_process';
import type { Config } from './config.ts';
import { embeddedClusterExists } from './db/embedded-cluster.ts';

/**
 * Creating the embedded cluster runs PostgreSQL's initdb inside the engine, whose WebAssembly memory grows to
 * several hundred MB on the way and never shrinks: a server that created its own data directory stayed at about
 * 610 MB for its whole life, against 135 MB when it opened one that already existed. So `serve`, finding no
 * cluster, has `butik migrate` create and migrate it in a process of its own that exits, then opens it itself.
 * Costs the first start one more Node process (about 0.4 s); every later start is untouched.
 */
export async function createEmbeddedClusterApart(config: Config): Promise<void> {
  const launcher = process.argv[1];
  if (config.databaseUrl || !launcher || embeddedClusterExists(config.dataDir)) return;
  const child = spawn(process.execPath, [...process.execArgv, launcher, 'migrate'], {
    env: process.env,
    // Its one line of success would only confuse; its errors are the reason this start fails, so they show.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
  if (exitCode !== 0) throw new Error(`creating the embedded database in ${config.dataDir} failed (above)`);
}
