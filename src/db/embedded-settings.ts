import { setFlagsFromString } from 'node:v8';

/**
 * The embedded engine's memory, sized for a small shop. PGlite starts PostgreSQL with a server's defaults
 * (128 MB of shared buffers, 4 GB of assumed cache, 100 connections' worth of shared state), and every page of
 * shared buffers is resident from the start, though one process and a few thousand products never fill them.
 * An operator raises the whole budget with BUTIK_EMBEDDED_MEMORY; the settings are derived from it.
 */
export const DEFAULT_EMBEDDED_MEMORY_BYTES = 64 * 1024 * 1024;

const KB = 1024;
const MB = 1024 * KB;

/** Sizes as PostgreSQL reads them: whole kilobytes. */
function kb(bytes: number): string {
  return `${Math.max(1, Math.floor(bytes / KB))}kB`;
}

/** Between low and high. */
function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * The PostgreSQL settings for a memory budget, as `name=value` pairs. What takes memory at once is the shared
 * buffers (an eighth of the budget) and the WAL buffers; work and temporary buffers are taken per sort or per
 * temporary table while one runs; effective_cache_size only tells the planner how much of the data the
 * operating system probably caches. The WAL sizes are disk, kept small so a small shop's data directory is.
 */
export function embeddedSettings(memoryBytes: number): string[] {
  const sharedBuffers = clamp(memoryBytes / 8, 1 * MB, 4096 * MB);
  return [
    `shared_buffers=${kb(sharedBuffers)}`,
    `wal_buffers=${kb(clamp(sharedBuffers / 32, 64 * KB, 16 * MB))}`,
    `effective_cache_size=${kb(memoryBytes)}`,
    `work_mem=${kb(clamp(memoryBytes / 16, 1 * MB, 256 * MB))}`,
    `maintenance_work_mem=${kb(clamp(memoryBytes / 4, 4 * MB, 1024 * MB))}`,
    `temp_buffers=${kb(clamp(memoryBytes / 32, 1 * MB, 256 * MB))}`,
    `min_wal_size=32MB`,
    `max_wal_size=${kb(clamp(memoryBytes * 2, 64 * MB, 1024 * MB))}`,
    // One process is the only backend there will ever be; the default reserves shared state for a hundred.
    'max_connections=4',
  ];
}

/** The settings as PostgreSQL command-line options, which win over the data directory's postgresql.conf. */
export function embeddedStartParams(defaults: readonly string[], memoryBytes: number): string[] {
  return [...defaults, ...embeddedSettings(memoryBytes).flatMap((setting) => ['-c', setting])];
}

/** From this budget up, the engine's WebAssembly also gets V8's optimising compiler (see below). */
export const OPTIMISED_ENGINE_FROM_BYTES = 256 * 1024 * 1024;

let compilerChosen = false;

/**
 * V8 compiles PGlite's 9 MB WebAssembly module with its baseline compiler at once, then again, in the
 * background, with its optimising one. That second copy and the compiler's working memory stay resident: about
 * 50 MB, a third of what a small shop's whole process needs. Without them a statement's CPU time inside the
 * engine is about 1.4 times as long (measured on a loop of small statements), which a shop of a few hundred
 * products does not notice; a budget from 256 MB up keeps the optimising compiler. Node 20 reads the flag when a
 * module is compiled, so the first embedded database a process opens decides, and it only affects WebAssembly;
 * Node 24 reads it only at process start, which is why bin/butik.js gives it to `serve` on the command line (and
 * this call then changes nothing).
 */
export function chooseEngineCompiler(memoryBytes: number): void {
  if (compilerChosen) return;
  compilerChosen = true;
  if (memoryBytes < OPTIMISED_ENGINE_FROM_BYTES) setFlagsFromString('--liftoff-only');
}
