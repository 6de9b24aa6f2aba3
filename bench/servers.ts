import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './catalog.ts';

export type RunningServer = { url: string; pid: number | undefined; close(): Promise<void> };

/** Rate limits raised far above anything one run can send (BUTIK_RATE_LIMITS, docs/behaviour.md#rate-limits). */
const UNLIMITED = 'anon:1000000000,preauth:1000000000,key:1000000000,ucp:1000000000';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Keeps the last lines a child wrote, to explain a failed start. */
function tail(child: ChildProcess): () => string {
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 20));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => lines.join('\n');
}

function stopper(child: ChildProcess, cleanup: () => void = () => {}): () => Promise<void> {
  return () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) { cleanup(); resolve(); return; }
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => { clearTimeout(timer); cleanup(); resolve(); });
    child.kill('SIGTERM');
  });
}

async function waitForReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`server did not become ready at ${url}:\n${output()}`);
}

export type ButikServer = RunningServer & { masterKey: string };

/**
 * `butik serve` as a child process: on PostgreSQL when a URL is given, else on the embedded database in
 * `dataDir` (a fresh temporary one unless given). Logging at warn (one JSON line per request would measure
 * pino, not Butik), no demo seed, rate limits raised. The port is chosen here, since at warn the
 * "butik listening" line is not logged. `readyMs`: from spawn to the first 200 of /readyz.
 */
export async function startButik(
  databaseUrl: string | undefined,
  options: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<ButikServer & { readyMs: number }> {
  const port = await freePort();
  const masterKey = `bench-master-${randomBytes(24).toString('base64url')}`;
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'butik-bench-'));
  const { DATABASE_URL: _inherited, ...env } = process.env;
  const started = performance.now();
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'butik.js'), 'serve'], {
    cwd: REPO_ROOT,
    env: {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
      BUTIK_DATA_DIR: dataDir,
      BUTIK_SEED: 'none',
      BUTIK_MASTER_KEY: masterKey,
      BUTIK_RATE_LIMITS: UNLIMITED,
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      NODE_ENV: 'production',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = tail(child);
  const url = `http://127.0.0.1:${port}`;
  const close = stopper(child, () => { if (ownDataDir) rmSync(dataDir, { recursive: true, force: true }); });
  try {
    await waitForReady(url, child, output);
  } catch (error) {
    await close();
    throw error;
  }
  return { url, pid: child.pid, masterKey, close, readyMs: Math.round(performance.now() - started) };
}

/**
 * A baseline server as a child process (bench/baseline-server.ts unless another is named); it prints
 * {"port": N} once it listens.
 */
export async function startBaseline(databaseUrl: string, script = 'baseline-server.ts'): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`./${script}`, import.meta.url))], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = tail(child);
  const close = stopper(child);
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const match = chunk.toString('utf8').match(/\{"port":(\d+)\}/);
      if (match) { child.stdout?.off('data', onData); resolve(Number(match[1])); }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`baseline server exited with ${code}:\n${output()}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, close };
}
