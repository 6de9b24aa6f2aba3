#!/usr/bin/env node
// Runs dist/butik.mjs, the bundle `npm install` builds (scripts/build.mjs), while it is newer than every file it
// was built from; otherwise, after an edit or without a build, the TypeScript sources through tsx.
// NODE_OPTIONS=--enable-source-maps makes the bundle's stack traces name the sources (the .map beside each file in dist/), at the
// price of about 60 MB of memory and 50 ms of start, which is why it is not the default.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
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

let cli;
if (bundleIsCurrent()) {
  cli = await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli.ts');
}
await cli.main(process.argv.slice(2));
