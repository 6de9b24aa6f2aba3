import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { send } from './preflight.ts';
import { startButik } from './servers.ts';

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

/**
 * Cold start with existing data: the embedded database is created and migrated by a first start,
 * then a second process is timed from spawn to its first ready /readyz. The best of three, since the first
 * of them also pays for the operating system's file cache.
 */
export async function coldStartMs(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'butik-cold-'));
  try {
    await (await startButik(undefined, { dataDir })).close();
    const times: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const server = await startButik(undefined, { dataDir });
      times.push(server.readyMs);
      await server.close();
    }
    return Math.min(...times);
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
