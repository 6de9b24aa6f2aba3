// `npm run build` (also run by `npm install` / `npm ci` as `prepare`): src/cli.ts and the libraries it uses as
// ES modules in dist/: the entry dist/butik.mjs, which bin/butik.js runs while it is newer than the sources, and
// dist/chunks/. A start compiles no TypeScript and resolves no module files (cold start about 1.8 → 1.1 s here),
// and the process carries no TypeScript loader (idle RSS on PostgreSQL about 225 → 130 MB). What a route loads
// with import() on its first request (the OAuth provider, the MCP SDK, the UCP face; src/edge/lazy.ts) is a
// chunk of its own, so an idle shop never reads, parses or keeps it.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names carry a hash: an earlier build's chunks would otherwise pile up.
rmSync('dist', { recursive: true, force: true });

await build({
  entryPoints: { butik: 'src/cli.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
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
