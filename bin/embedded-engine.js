// What `butik serve` does for the embedded database before the rest of Butik loads.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

/** Where the compiled engine waits for src/db/open-pglite.ts, which takes it once. */
export const EARLY_ENGINE = Symbol.for('butik.embedded-engine');

// The engine's WebAssembly is compiled by V8's baseline compiler alone below a 256 MB budget
// (src/db/embedded-settings.ts: about 50 MB less resident). Node 20's V8 honours --liftoff-only set while running;
// Node 24's reads it only when the process starts (set later it changes nothing, and an idle shop holds about
// 205 MB instead of 130). Where Node can replace the process in place (process.execve, Node 22.15 and later),
// `serve` therefore starts again at once with the flag: same process id, same standard streams, about 40 ms.
const ENGINE_FLAG = '--liftoff-only';
const OPTIMISED_ENGINE_FROM_BYTES = 256 * 1024 ** 2;
const SIZE_UNITS = { kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

function wantsBaselineCompiler(env) {
  const budget = env.BUTIK_EMBEDDED_MEMORY?.trim();
  if (!budget) return true;
  // Anything else is the configuration's to refuse, with its own message.
  const [, amount, unit] = /^(\d+)\s*(kB|MB|GB)$/.exec(budget) ?? [];
  return amount !== undefined && Number(amount) * SIZE_UNITS[unit] < OPTIMISED_ENGINE_FROM_BYTES;
}

/**
 * For `serve` on the embedded database: chooses the engine's compiler, then starts compiling the engine (9 MB
 * of WebAssembly, about 150 ms on V8's background threads) while this thread loads the rest of Butik, which
 * takes longer; PGlite would otherwise start compiling only once it is asked to open the database.
 */
export function prepareEmbeddedEngine(launcher, args, env) {
  if (args[0] !== 'serve' || env.DATABASE_URL) return;
  if (wantsBaselineCompiler(env) && !process.execArgv.includes(ENGINE_FLAG)) {
    if (typeof process.execve === 'function') process.execve(process.execPath, [process.execPath, ENGINE_FLAG, ...process.execArgv, launcher, ...args]);
    v8.setFlagsFromString(ENGINE_FLAG);
  }
  // A failure here only means PGlite reads and compiles the engine itself, and reports what is wrong.
  globalThis[EARLY_ENGINE] = readFile(fileURLToPath(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite'))))
    .then((bytes) => WebAssembly.compile(bytes))
    .catch(() => undefined);
}
