import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCategory } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createCategory(t);
});
afterAll(async () => { await t?.close(); });

/** A full collection between measurements, without needing node --expose-gc for the whole run. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  if (typeof gc !== 'function') throw new Error('gc is not available');
  gc();
  gc();
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'memory-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The same call in both eras: a sessionless 2026-07-28 request and a 2025-11-25 one (SSE answer). */
const MODERN = {
  headers: { ...ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'categories.list' },
  payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'categories.list', arguments: {}, _meta: META } }),
};
const LEGACY = {
  headers: { ...ACCEPT, 'mcp-protocol-version': '2025-11-25' },
  payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'categories.list', arguments: {} } }),
};

async function calls(count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const { headers, payload } = i % 2 === 0 ? MODERN : LEGACY;
    const response = await t.app.inject({ method: 'POST', url: '/api/mcp', headers, payload });
    if (response.statusCode !== 200 || !response.body.includes('"structuredContent"')) {
      throw new Error(`call ${i} failed: ${response.statusCode} ${response.body}`);
    }
  }
}

it('keeps the heap flat over 10,000 sequential tools/call requests in both eras (a server per request, none kept)', async () => {
  await calls(300);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  await calls(10_000);
  collectGarbage();
  const growth = process.memoryUsage().heapUsed - before;
  // A leak of one small object per request would already show as several megabytes here.
  expect(growth).toBeLessThan(6 * 1024 * 1024);
}, 300_000);
