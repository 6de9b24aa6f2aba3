import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { send } from '../helpers/http.ts';

const PATHS = ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json', '/api/mcp/server-card'];

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('the MCP server card', () => {
  it('is served identically at all three addresses, cacheable and readable cross-origin', async () => {
    const responses = await Promise.all(PATHS.map((url) => send(t, { method: 'GET', url })));
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['cache-control']).toBe('public, max-age=3600');
      expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
    }
    expect(new Set(responses.map((response) => JSON.stringify(response.body))).size).toBe(1);
    expect(new Set(responses.map((response) => response.headers.etag)).size).toBe(1);
  });

  it('carries the SEP-2127 fields', async () => {
    const { body } = await send(t, { method: 'GET', url: PATHS[0] });
    expect(body.$schema).toBe('https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
    expect(body.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(body.version).toBe('1.0.0');
    expect(body.description.length).toBeGreaterThan(0);
    expect(body.description.length).toBeLessThanOrEqual(100);
    expect(body.remotes).toEqual([expect.objectContaining({
      type: 'streamable-http',
      url: 'http://butik.test/api/mcp',
      supportedProtocolVersions: ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    }), expect.objectContaining({
      type: 'streamable-http',
      url: 'http://butik.test/api/mcp/connect',
      supportedProtocolVersions: ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    })]);
    expect(body.remotes[0].headers).toEqual([expect.objectContaining({ name: 'Authorization', isRequired: false, isSecret: true })]);
  });

  it('lists the connector URL as a remote that requires sign-in, with its own protected-resource metadata', async () => {
    const { body } = await send(t, { method: 'GET', url: PATHS[0] });
    expect(body.remotes[1].authentication).toEqual({
      required: true,
      schemes: ['bearer', 'oauth2'],
      protectedResourceMetadata: 'http://butik.test/.well-known/oauth-protected-resource/api/mcp/connect',
    });
    const metadata = await send(t, { method: 'GET', url: '/.well-known/oauth-protected-resource/api/mcp/connect' });
    expect(metadata.body).toMatchObject({ resource: 'http://butik.test/api/mcp/connect', authorization_servers: ['http://butik.test'] });
  });

  it('carries the SEP-1649 fields, with optional Bearer authentication', async () => {
    const { body } = await send(t, { method: 'GET', url: PATHS[1] });
    expect(body.serverInfo).toEqual({ name: 'butik', title: 'Butik', version: '1.0.0' });
    expect(body.transport).toEqual({ type: 'streamable-http', endpoint: 'http://butik.test/api/mcp' });
    expect(body.capabilities).toEqual({ tools: { listChanged: false }, resources: { listChanged: false } });
    expect(body.authentication).toEqual({
      required: false,
      schemes: ['bearer', 'oauth2'],
      protectedResourceMetadata: expect.stringMatching(/\/\.well-known\/oauth-protected-resource\/api\/mcp$/),
    });
  });

  it('answers 304 without a body when If-None-Match names its ETag', async () => {
    const first = await send(t, { method: 'GET', url: PATHS[2] });
    const etag = String(first.headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await send(t, { method: 'GET', url: PATHS[2], headers: { 'if-none-match': ifNoneMatch } });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
    }
    const changed = await send(t, { method: 'GET', url: PATHS[2], headers: { 'if-none-match': '"stale"' } });
    expect(changed.status).toBe(200);
  });

  it('matches what the endpoint itself says in initialize', async () => {
    const { body } = await send(t, { method: 'GET', url: PATHS[0] });
    const response = await send(t, {
      method: 'POST',
      url: '/api/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'card-test', version: '1' } },
      }),
    });
    const data = String(response.body).split('\n').find((line) => line.startsWith('data: {'));
    const result = JSON.parse(String(data).slice(6)).result;
    expect(result.serverInfo).toMatchObject(body.serverInfo);
    expect(result.capabilities).toEqual(body.capabilities);
  });
});
