// `npm run build` (also run by `npm install` / `npm ci` as `prepare`): src/cli.ts and the libraries it uses as
// ES modules in dist/: the entry dist/butik.mjs, which bin/butik.js runs while it is newer than the sources, and
// dist/chunks/. A start compiles no TypeScript and resolves no module files (cold start about 1.8 → 1.1 s here),
// and the process carries no TypeScript loader (idle RSS on PostgreSQL about 225 → 130 MB). What a route loads
// with import() on its first request (the OAuth provider, the MCP SDK, the UCP face; src/edge/lazy.ts) is a
// chunk of its own, so an idle shop never reads, parses or keeps it.
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  // PGlite finds its WebAssembly and data files next to its own modules; pg-native is pg's optional binding; esbuild
  // (which bundles the MCP Apps views at their first read, src/mcp/apps/bundle.ts) finds its binary beside its own package.
  external: ['@electric-sql/pglite', 'pg-native', 'esbuild'],
  // Bundled CommonJS libraries still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __butikRequire } from 'node:module'; const require = __butikRequire(import.meta.url);" },
  sourcemap: 'linked',
  legalComments: 'linked',
  logLevel: 'warning',
});

// V8 keeps a module's source text for as long as the process runs (it compiles functions lazily), one byte per
// character while every character is ASCII and two bytes otherwise. esbuild escapes strings, but leaves the comments
// it keeps and tagged template literals (whose raw text a tag could read) as written, so a single "·" in a page
// template or "—" in a library's comment doubled a chunk: 3 MB of the idle heap. Escaped, a comment reads the same
// and a template's cooked strings are the same characters; no tag in Butik or its libraries reads the raw text.
// (On such a line the source map's columns after the character are a few off; its lines stay right.)
for (const file of readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.mjs'))) {
  const path = join('dist', file);
  const text = readFileSync(path, 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(path, ascii);
}
