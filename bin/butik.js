#!/usr/bin/env node
// Runs dist/butik.mjs, the bundle `npm install` builds (scripts/build.mjs), while it is newer than every file it
// was built from; otherwise, after an edit or without a build, the TypeScript sources through tsx.
// NODE_OPTIONS=--enable-source-maps makes the bundle's stack traces name the sources (the .map beside each file in dist/), at the
// price of about 60 MB of memory and 50 ms of start, which is why it is not the default.
import { readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

const root = join(import.meta.dirname, '..');

// The embedded engine's WebAssembly is compiled by V8's baseline compiler alone below a 256 MB budget
// (src/db/embedded-settings.ts: about 50 MB less resident). Node 20's V8 honours --liftoff-only set while running;
// Node 24's reads it only when the process starts (set later it changes nothing, and an idle shop holds about
// 205 MB instead of 130). Where Node can replace the process in place (process.execve, Node 22.15 and later),
// `serve` on the embedded database therefore starts again at once with the flag: same process id, same
// standard streams, about 40 ms.
const ENGINE_FLAG = '--liftoff-only';
const OPTIMISED_ENGINE_FROM_BYTES = 256 * 1024 ** 2;
const SIZE_UNITS = { kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

function wantsBaselineEngine(env) {
  if (env.DATABASE_URL) return false;
  const budget = env.BUTIK_EMBEDDED_MEMORY?.trim();
  if (!budget) return true;
  // Anything else is the configuration's to refuse, with its own message.
  const [, amount, unit] = /^(\d+)\s*(kB|MB|GB)$/.exec(budget) ?? [];
  return amount !== undefined && Number(amount) * SIZE_UNITS[unit] < OPTIMISED_ENGINE_FROM_BYTES;
}

if (process.argv[2] === 'serve' && typeof process.execve === 'function' && !process.execArgv.includes(ENGINE_FLAG)
  && wantsBaselineEngine(process.env)) {
  process.execve(process.execPath, [process.execPath, ENGINE_FLAG, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)]);
}
const bundle = join(root, 'dist', 'butik.mjs');

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

function bundleIsCurrent() {
  try {
    return statSync(bundle).mtimeMs > Math.max(newestChange(join(root, 'src')), newestChange(join(root, 'package-lock.json')));
  } catch {
    return false;
  }
}

// `serve` starts with V8's young generation at its smallest (two 1 MB semi-spaces) and lets it grow again once
// the server is ready. Loading the bundle and starting the embedded engine would otherwise grow it to two 16 MB
// semi-spaces, which an idle shop keeps resident (about 25 MB of its 170); load grows it as before. V8 reads
// this flag each time it considers growing, so setting it while running takes effect (the size limits do not:
// they are read once, at start); 2, doubling, is its default. An operator who sizes the young generation
// (NODE_OPTIONS=--max-semi-space-size=…; 16 is V8's own choice, start included) is left alone.
const leanStart = process.argv[2] === 'serve' && !/semi[-_]space/.test([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '));
if (leanStart) v8.setFlagsFromString('--semi-space-growth-factor=1');

let cli;
if (bundleIsCurrent()) {
  // Node 22.1 and later keep V8's compiled code for the bundle beside it (the build empties dist/), so a start
  // after the first skips most of compiling it. Where dist/ is not writable Node says so and compiles as before.
  module.enableCompileCache?.(join(root, 'dist', '.compile-cache'));
  cli = await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli.ts');
}
await cli.main(process.argv.slice(2));
if (leanStart) v8.setFlagsFromString('--semi-space-growth-factor=2');
