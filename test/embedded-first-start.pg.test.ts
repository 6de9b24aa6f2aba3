import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runButik } from './helpers/butik-process.ts';
import { startInstance } from './helpers/instances.ts';

/** The most memory the process has held resident so far (Linux's VmHWM). */
function peakResidentBytes(pid: number): number {
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

// Only the embedded database has a cluster to create; resident memory is read from Linux's /proc.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL) || !existsSync('/proc/self/status'))('the first start on an empty data directory', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'butik-first-start-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** `butik serve` on the demo shop until it has answered a search: the most memory it held by then; then SIGTERM. */
  async function peakWhenServing(dataDir: string): Promise<number> {
    const instance = await startInstance('butik', { PATH: process.env.PATH ?? '', BUTIK_DATA_DIR: dataDir, BUTIK_SEED: 'demo', PORT: '0', HOST: '127.0.0.1' });
    try {
      const search = await fetch(`${instance.url}/api/v1/tools/products.search`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"wayfarer"}',
      });
      expect((await search.json() as { result: unknown[] }).result.length).toBeGreaterThan(0);
      const peak = peakResidentBytes(instance.child.pid ?? 0);
      // Nothing of the helper process is left on the server's output.
      expect(instance.output.join('\n')).not.toContain('migrations applied');
      instance.child.kill('SIGTERM');
      expect(await instance.exited).toBe(0);
      return peak;
    } finally {
      if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
    }
  }

  it('creates the cluster in a process of its own, so the server never holds the memory creating it takes', async () => {
    const dataDir = join(dir, 'data');
    const first = await peakWhenServing(dataDir);
    expect(existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
    const later = await peakWhenServing(dataDir);
    // Created by the serving process, the cluster took it to about 610 MB, which it kept; a later start peaks near 140.
    expect(first).toBeLessThan(later * 1.3);
  });

  it('fails the start with the reason the cluster could not be created', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const started = await runButik(['serve'], { BUTIK_DATA_DIR: join(blocker, 'data'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('ENOTDIR');
    expect(started.stderr).toContain(`creating the embedded database in ${join(blocker, 'data')} failed (above)`);
  });
});
