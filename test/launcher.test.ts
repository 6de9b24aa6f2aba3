import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIMISED_ENGINE_FROM_BYTES } from '../src/db/embedded-settings.ts';

const ROOT = join(import.meta.dirname, '..');

/**
 * bin/butik.js in a checkout of its own whose bundle and sources only say which of them ran, so the choice
 * can be tested by moving file times: the bundle while it is newer than src/ and the lockfile, else the sources.
 */
describe('bin/butik.js', () => {
  let dir: string;
  const run = () => execFileSync(process.execPath, [join(dir, 'bin', 'butik.js'), 'serve'], { encoding: 'utf8' }).trim();
  const touch = (path: string, secondsAgo: number) => {
    const at = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(join(dir, path), at, at);
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'butik-launcher-'));
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'dist'));
    mkdirSync(join(dir, 'src', 'db'), { recursive: true });
    for (const file of ['butik.js', 'embedded-engine.js', 'node-version.js']) cpSync(join(ROOT, 'bin', file), join(dir, 'bin', file));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(dir, 'package-lock.json'), '{}');
    writeFileSync(join(dir, 'dist', 'butik.mjs'), 'export async function main(args) { console.log("bundle", args.join(" ")); }');
    writeFileSync(join(dir, 'src', 'cli.ts'), 'export async function main(args: string[]): Promise<void> { console.log("sources", args.join(" ")); }');
    writeFileSync(join(dir, 'src', 'db', 'client.ts'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops on a Node older than 22.12 with a sentence that names the version to use, before anything loads', () => {
    // process.versions.node is what the check reads; pretending an older one is the only way to be older here.
    const older = `Object.defineProperty(process.versions, 'node', { value: '22.11.0' }); await import(${JSON.stringify(join(dir, 'bin', 'butik.js'))});`;
    let failure: { status: number; stderr: string; stdout: string } | undefined;
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', older], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      failure = error as { status: number; stderr: string; stdout: string };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toMatch(/^butik needs Node\.js 22\.12 or newer \(Node\.js 24, the current LTS, is the one to use\); this is v/);
    expect(failure?.stdout).toBe('');
  });

  it('runs the bundle while it is newer than every source file and the lockfile', () => {
    for (const path of ['src', 'src/cli.ts', 'src/db', 'src/db/client.ts', 'package-lock.json']) touch(path, 60);
    touch('dist/butik.mjs', 0);
    expect(run()).toBe('bundle serve');
  });

  it('runs the sources through tsx once a source file deep in src/ is newer than the bundle', () => {
    touch('dist/butik.mjs', 30);
    touch('src/db/client.ts', 0);
    expect(run()).toBe('sources serve');
  });

  it('runs the sources when the lockfile changed after the build (other libraries than the bundle holds)', () => {
    for (const path of ['src', 'src/cli.ts', 'src/db', 'src/db/client.ts']) touch(path, 60);
    touch('dist/butik.mjs', 30);
    touch('package-lock.json', 0);
    expect(run()).toBe('sources serve');
  });

  it('starts serve with the smallest young generation and lets it grow once the server is ready', () => {
    // A bundle that allocates like a start (many objects that live a while) before and after main returns,
    // and says how large V8's young generation (both semi-spaces) was each time.
    writeFileSync(join(dir, 'dist', 'butik.mjs'), `import v8 from 'node:v8';
      const youngMb = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 1048576;
      function allocate() { let kept = []; for (let i = 0; i < 2e6; i += 1) { kept.push({ i }); if (kept.length > 1e5) kept = []; } }
      export async function main(args) {
        allocate();
        const started = youngMb();
        setTimeout(() => { allocate(); console.log(args[0], started, youngMb()); });
      }`);
    touch('dist/butik.mjs', 0);
    const young = (command: string, nodeOptions = '') => execFileSync(process.execPath, [join(dir, 'bin', 'butik.js'), command], {
      encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: nodeOptions },
    }).trim();
    // Started at its smallest, then grown as V8 grows it. Node 20 leaves it at 1 or 2 MB, as the start's few
    // scavenges happen; Node 24's V8 now and then sizes it a few pages larger all the same (2.25–6.75 MB seen in
    // about one start in ten), still far below the 32 MB the same start reaches without the lean start (below).
    const [command, started, grown] = young('serve').split(' ');
    expect(command).toBe('serve');
    expect(Number(started)).toBeLessThanOrEqual(8);
    // V8's own size for this allocation: 32 MB on Node 20, 32 or 64 MB on Node 24, whose limit is higher.
    expect(Number(grown)).toBeGreaterThanOrEqual(32);
    // Other commands, and an operator who sized the young generation, get V8's own growth.
    const [other, otherStarted] = young('migrate').split(' ');
    expect(other).toBe('migrate');
    expect(Number(otherStarted)).toBeGreaterThanOrEqual(32);
    expect(young('serve', '--max-semi-space-size=4')).toBe('serve 8 8');
  });

  // Node 22.15 and later can replace a process in place; Node 20 cannot, and honours the flag set at runtime instead.
  it.runIf('execve' in process)('starts the embedded engine\'s serve with V8\'s baseline WebAssembly compiler from the first instruction', () => {
    writeFileSync(join(dir, 'dist', 'butik.mjs'), 'export async function main(args) { console.log(args[0], process.pid, process.execArgv.join(" ")); }');
    touch('dist/butik.mjs', 0);
    const start = (command: string, env: Record<string, string> = {}) => {
      const { DATABASE_URL: _url, BUTIK_EMBEDDED_MEMORY: _budget, ...inherited } = process.env;
      return execFileSync(process.execPath, [join(dir, 'bin', 'butik.js'), command], { encoding: 'utf8', env: { ...inherited, ...env } }).trim().split(' ');
    };
    const budgetMb = OPTIMISED_ENGINE_FROM_BYTES / 1024 ** 2;
    expect(start('serve')).toContain('--liftoff-only');
    expect(start('serve', { BUTIK_EMBEDDED_MEMORY: `${budgetMb - 1}MB` })).toContain('--liftoff-only');
    // A budget that keeps the optimising compiler, a PostgreSQL shop and the short CLI commands start once.
    expect(start('serve', { BUTIK_EMBEDDED_MEMORY: `${budgetMb}MB` })).not.toContain('--liftoff-only');
    expect(start('serve', { DATABASE_URL: 'postgres://127.0.0.1/butik' })).not.toContain('--liftoff-only');
    expect(start('migrate')).not.toContain('--liftoff-only');
  });

  it('starts compiling the embedded engine for serve before the rest loads, and leaves it for the database to take', () => {
    writeFileSync(join(dir, 'dist', 'butik.mjs'), `export async function main(args) {
      const early = globalThis[Symbol.for('butik.embedded-engine')];
      console.log(args[0], early instanceof Promise ? (await early) instanceof WebAssembly.Module : 'none');
    }`);
    touch('dist/butik.mjs', 0);
    const start = (command: string, env: Record<string, string> = {}) => {
      const { DATABASE_URL: _url, ...inherited } = process.env;
      return execFileSync(process.execPath, [join(dir, 'bin', 'butik.js'), command], { encoding: 'utf8', env: { ...inherited, ...env } }).trim();
    };
    expect(start('serve')).toBe('serve true');
    expect(start('serve', { DATABASE_URL: 'postgres://127.0.0.1/butik' })).toBe('serve none');
    expect(start('migrate')).toBe('migrate none');
  });

  it('runs the sources when there is no bundle', () => {
    rmSync(join(dir, 'dist', 'butik.mjs'));
    expect(run()).toBe('sources serve');
  });
});
