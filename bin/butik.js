#!/usr/bin/env node
// Runs dist/butik.mjs, the bundle `npm install` builds (scripts/build.mjs), while it is newer than every file it
// was built from; otherwise, after an edit or without a build, the TypeScript sources through tsx.
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
  // Stack traces in the logs name the TypeScript sources, not bundle lines.
  process.setSourceMapsEnabled(true);
  cli = await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli.ts');
}
await cli.main(process.argv.slice(2));
