import { execFile } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { embeddedClusterDir } from '../src/db/embedded-cluster.ts';
import { DEFAULT_EMBEDDED_MEMORY_BYTES, embeddedStartParams } from '../src/db/embedded-settings.ts';
import { PGlite } from '@electric-sql/pglite';
import { send } from './preflight.ts';
import { startButik } from './servers.ts';

const run = promisify(execFile);

/** Resident memory of a process in MB (VmRSS), undefined where /proc is missing. */
export function residentMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
    return match ? Math.round(Number(match[1]) / 102.4) / 10 : undefined;
  } catch {
    return undefined;
  }
}

/** A cold start, and beside it what the same machine needs for the parts Butik does not control. */
export type ColdStart = {
  /** Spawn to the first ready /readyz of `butik serve` over existing embedded data. */
  coldStartMs: number;
  /** Spawn to exit of `node -e 0`. */
  nodeAloneMs: number;
  /** Process start to one answered statement of PGlite alone, opening the same data with Butik's settings. */
  bareEngineMs: number;
};

const best = (times: number[]) => Math.min(...times);

/**
 * Cold start with existing data: the embedded database is created and migrated by a first start,
 * then a second process is timed from spawn to its first ready /readyz. The best of three, since the first
 * of them also pays for the operating system's file cache. Node alone and the engine alone are timed the same
 * way, so a start over its target says which part of it this machine spends where.
 */
export async function coldStart(): Promise<ColdStart> {
  const dataDir = mkdtempSync(join(tmpdir(), 'butik-cold-'));
  try {
    await (await startButik(undefined, { dataDir })).close();
    const times: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const server = await startButik(undefined, { dataDir });
      times.push(server.readyMs);
      await server.close();
    }
    const node: number[] = [];
    const engine: number[] = [];
    const startParams = JSON.stringify(embeddedStartParams(PGlite.defaultStartParams, DEFAULT_EMBEDDED_MEMORY_BYTES));
    const bareEngine = fileURLToPath(new URL('./bare-engine.mjs', import.meta.url));
    for (let round = 0; round < 3; round += 1) {
      const spawned = performance.now();
      await run(process.execPath, ['-e', '0']);
      node.push(performance.now() - spawned);
      // Butik's default budget runs the engine on V8's baseline compiler alone (src/db/embedded-settings.ts).
      const { stdout } = await run(process.execPath, ['--liftoff-only', bareEngine, embeddedClusterDir(dataDir), startParams]);
      engine.push(Number(JSON.parse(stdout).readyMs));
    }
    return { coldStartMs: best(times), nodeAloneMs: Math.round(best(node)), bareEngineMs: Math.round(best(engine)) };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What tools/list weighs, and its largest parts, so a missed target says what it is made of. */
export type ToolsListSize = { toolsListBytes: number; toolsListParts: { outputSchemas: number; inputSchemas: number; descriptions: number } };

const bytesOf = (value: unknown) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));

/** The bytes of tools/list as an agent holding every scope reads it (docs/behaviour.md#the-tool-list). */
export async function toolsListSize(url: string, masterKey: string): Promise<ToolsListSize> {
  const response = await send(url, {
    method: 'POST',
    path: '/api/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${masterKey}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const tools: unknown = typeof response.body === 'object' && response.body !== null
    ? Reflect.get(Reflect.get(response.body, 'result') ?? {}, 'tools')
    : undefined;
  if (response.status !== 200 || !Array.isArray(tools)) throw new Error(`tools/list → ${response.status}`);
  const part = (name: string) => tools.reduce((sum: number, tool: unknown) => sum + bytesOf(typeof tool === 'object' && tool !== null ? Reflect.get(tool, name) : undefined), 0);
  return {
    toolsListBytes: Buffer.byteLength(JSON.stringify({ tools })),
    toolsListParts: { outputSchemas: part('outputSchema'), inputSchemas: part('inputSchema'), descriptions: part('description') },
  };
}
