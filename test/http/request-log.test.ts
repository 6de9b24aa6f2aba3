import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, readOnly } from '../../src/tools/define-tool.ts';
import { ALL_TOOLS } from '../../src/tools/registry.ts';
import { createTestApp } from '../helpers/app.ts';
import type { CallResult, TestApp } from '../helpers/app.ts';

type LogLine = Record<string, unknown> & { msg?: string; reqId?: string; level?: number };

const failing = defineTool({
  name: 'test.fails',
  description: 'Always fails unexpectedly (test only).',
  scope: 'catalog:read',
  anonymous: true,
  annotations: readOnly('Fails'),
  input: z.strictObject({}),
  output: z.strictObject({}),
  handler: async () => { throw new Error('boom'); },
});

let t: TestApp | undefined;
const requestId = (call: CallResult) => String(call.headers['x-request-id']);
afterEach(async () => { await t?.close(); t = undefined; });

async function appLoggingAt(level: string): Promise<{ app: TestApp; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const app = await createTestApp({
    env: { LOG_LEVEL: level },
    logger: true,
    logStream: { write: (line) => { lines.push(JSON.parse(line) as LogLine); } },
    tools: [...ALL_TOOLS, failing],
  });
  t = app;
  return { app, lines };
}

describe('the request line', () => {
  it('at warn writes no request line, and a failure\'s line still names its request', async () => {
    const { app, lines } = await appLoggingAt('warn');
    const fine = await app.call('categories.list', {});
    const failed = await app.call('test.fails', {});
    expect(fine.status).toBe(200);
    expect(failed.status).toBe(500);

    expect(lines.filter((line) => line.msg === 'request')).toEqual([]);
    expect(lines.filter((line) => line.reqId === requestId(fine))).toEqual([]);
    const failure = lines.filter((line) => line.reqId === requestId(failed));
    expect(failure).toHaveLength(1);
    expect(failure[0]).toMatchObject({ level: 50, msg: 'tool call failed', reqId: requestId(failed), err: { message: 'boom' } });
  });

  it('at info writes one request line per request, and the failure beside it', async () => {
    const { app, lines } = await appLoggingAt('info');
    const fine = await app.call('categories.list', {});
    const failed = await app.call('test.fails', {});

    expect(lines.filter((line) => line.reqId === requestId(fine))).toEqual([
      expect.objectContaining({ level: 30, msg: 'request', method: 'POST', url: '/api/v1/tools/categories.list', statusCode: 200 }),
    ]);
    expect(lines.filter((line) => line.reqId === requestId(failed)).map((line) => line.msg)).toEqual(['tool call failed', 'request']);
  });
});
