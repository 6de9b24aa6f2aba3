import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, readOnly } from '../../src/tools/define-tool.ts';
import { ALL_TOOLS } from '../../src/tools/registry.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { expectProblem, send } from '../helpers/http.ts';

const SINCE = new Date('2026-01-01T00:00:00Z');
const SUNSET = new Date('2026-07-01T00:00:00Z');
const GUIDE = 'https://butik.test/docs/migrating-from-legacy-echo';

/** A tool that exists only here, to watch the deprecation signals without deprecating a real one. */
const legacyEcho = defineTool({
  name: 'legacy.echo',
  description: 'Echoes its text back. Deprecated: kept for old clients until its sunset.',
  scope: 'catalog:read',
  annotations: readOnly('Echo text (deprecated)'),
  input: z.strictObject({ text: z.string().min(1) }),
  output: z.strictObject({ text: z.string() }),
  deprecated: { since: SINCE, sunset: SUNSET, link: GUIDE },
  handler: async (input) => ({ text: input.text }),
});

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp({ tools: [...ALL_TOOLS, legacyEcho] });
  key = await t.keyWith('catalog:read');
});
afterAll(async () => { await t?.close(); });

function expectDeprecationHeaders(headers: Record<string, unknown>): void {
  expect(headers.deprecation).toBe('@1767225600');
  expect(headers.sunset).toBe('Wed, 01 Jul 2026 00:00:00 GMT');
  const link = String(headers.link);
  expect(link).toContain(`<${GUIDE}>; rel="deprecation"`);
  expect(link).toContain(`<${GUIDE}>; rel="sunset"`);
}

describe('a deprecated tool', () => {
  it('announces Deprecation, Sunset and their Link relations on success, with the rate-limit headers', async () => {
    const response = await t.call('legacy.echo', { text: 'hej' }, { key });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ text: 'hej' });
    expectDeprecationHeaders(response.headers);
    expect(response.headers['ratelimit-policy']).toMatch(/^"(preauth|key)";q=\d+;w=60$/);
    // The sunset is announced at least 90 days after the deprecation.
    expect(SUNSET.getTime() - SINCE.getTime()).toBeGreaterThanOrEqual(90 * 86_400_000);
  });

  it('announces them on a failed call of the tool too', async () => {
    const response = await t.call('legacy.echo', { text: '' }, { key });
    expectProblem(response, 400, 'validation_failed');
    expectDeprecationHeaders(response.headers);
  });

  it('is marked deprecated: true on its OpenAPI operation, and no other operation is', async () => {
    const document = await send(t, { method: 'GET', url: '/api/v1/openapi.json' });
    expect(document.status).toBe(200);
    const paths: Record<string, { post: { deprecated?: boolean; operationId: string } }> = document.body.paths;
    expect(paths['/api/v1/tools/legacy.echo']?.post).toMatchObject({ deprecated: true, operationId: 'invoke_legacy_echo' });
    const marked = Object.entries(paths).filter(([path, item]) => path.startsWith('/api/v1/tools/') && item.post.deprecated !== undefined)
      .map(([path]) => path);
    expect(marked).toEqual(['/api/v1/tools/legacy.echo']);
  });

  it('leaves tools that are not deprecated without the headers', async () => {
    const response = await t.call('products.search', {}, { key });
    expect(response.status).toBe(200);
    expect(response.headers.deprecation).toBeUndefined();
    expect(response.headers.sunset).toBeUndefined();
    expect(response.headers.link).toBeUndefined();
  });
});
