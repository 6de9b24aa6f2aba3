#!/usr/bin/env node
// Runs dist/butik.mjs, the bundle `npm install` builds (scripts/build.mjs), while it is newer than every file it
// was built from; otherwise, after an edit or without a build, the TypeScript sources through tsx.
// NODE_OPTIONS=--enable-source-maps makes the bundle's stack traces name the sources (the .map beside each file in dist/), at the
// price of about 60 MB of memory and 50 ms of start, which is why it is not the default.
import './node-version.js';
import { readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { prepareEmbeddedEngine } from './embedded-engine.js';

const root = join(import.meta.dirname, '..');

prepareEmbeddedEngine(fileURLToPath(import.meta.url), process.argv.slice(2), process.env);

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
