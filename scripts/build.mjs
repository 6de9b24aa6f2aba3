// `npm run build` (also run by `npm install` / `npm ci` as `prepare`): src/cli.ts and the libraries it uses
// as one ES module, dist/butik.mjs, which bin/butik.js runs while it is newer than the sources. Issue 15: a
// start no longer compiles TypeScript or resolves several hundred small files (cold start about 1.8 → 1.1 s
// here), and the process carries no TypeScript loader (idle RSS on PostgreSQL about 225 → 130 MB).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/butik.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // PGlite finds its WebAssembly and data files next to its own modules; pg-native is pg's optional binding.
  external: ['@electric-sql/pglite', 'pg-native'],
  // Bundled CommonJS libraries still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __butikRequire } from 'node:module'; const require = __butikRequire(import.meta.url);" },
  sourcemap: 'linked',
  legalComments: 'linked',
  logLevel: 'warning',
});
