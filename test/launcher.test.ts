import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
    cpSync(join(ROOT, 'bin', 'butik.js'), join(dir, 'bin', 'butik.js'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(dir, 'package-lock.json'), '{}');
    writeFileSync(join(dir, 'dist', 'butik.mjs'), 'export async function main(args) { console.log("bundle", args.join(" ")); }');
    writeFileSync(join(dir, 'src', 'cli.ts'), 'export async function main(args: string[]): Promise<void> { console.log("sources", args.join(" ")); }');
    writeFileSync(join(dir, 'src', 'db', 'client.ts'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

  it('runs the sources when there is no bundle', () => {
    rmSync(join(dir, 'dist', 'butik.mjs'));
    expect(run()).toBe('sources serve');
  });
});
