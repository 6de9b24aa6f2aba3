import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master, uniqueSlug } from '../helpers/fixtures.ts';
import { MCP_INVALID_TOKEN_CHALLENGE, expectProblem, send } from '../helpers/http.ts';
import { LEGACY_HEADERS, rpc } from './mcp-client.ts';

const ALLOWED_ORIGIN = 'https://agent.example';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { BUTIK_RATE_LIMITS: 'anon:3,preauth:3,key:100000', BUTIK_ALLOWED_ORIGINS: ALLOWED_ORIGIN } });
});
afterAll(async () => { await t?.close(); });

/** The anonymous and pre-auth quotas are 3 per IP here, so every test speaks from addresses of its own. */
let lastIp = 0;
function nextIp(): string {
  lastIp += 1;
  return `10.0.${Math.floor(lastIp / 250)}.${lastIp % 250 + 1}`;
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A sessionless 2026-07-28 request: the `_meta` envelope plus the Mcp-Method/Mcp-Name headers. */
function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return {
    message: { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: { ...MODERN_META, ...(params._meta ?? {}) } } },
    headers: { ...LEGACY_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name, ...headers },
  };
}

function initialize(protocolVersion: string) {
  return { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '1' } } };
}

/** One JSON-RPC exchange from a fresh address. */
function exchange(message: Record<string, unknown>, headers: Record<string, string> = LEGACY_HEADERS) {
  return rpc(t, message, headers, nextIp());
}

async function post(message: unknown, headers: Record<string, string>, ip = nextIp()) {
  return send(t, { method: 'POST', url: '/api/mcp', headers, payload: JSON.stringify(message), remoteAddress: ip });
}

describe('the initialize era', () => {
  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])('initializes at %s without a session', async (version) => {
    const response = await exchange(initialize(version));
    expect(response.status).toBe(200);
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect(response.body.result).toMatchObject({
      protocolVersion: version,
      serverInfo: { name: 'butik', version: '1.0.0' },
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    });
  });

  it('sends an SSE answer whole, framed by Content-Length instead of chunks', async () => {
    const response = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'categories.list', arguments: {} } },
      { ...LEGACY_HEADERS, 'mcp-protocol-version': '2025-11-25' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(response.headers['transfer-encoding']).toBeUndefined();
    const body = String(response.body);
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(body).toMatch(/^event: message\ndata: \{"result":\{"content":\[\{"type":"text"/);
    expect(body.endsWith('\n\n')).toBe(true);
  });

  it('answers tools/list on a later POST with no session at all', async () => {
    const response = await exchange({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { ...LEGACY_HEADERS, 'mcp-protocol-version': '2025-06-18' });
    expect(response.status).toBe(200);
    expect(response.body.result.tools).toHaveLength(5);
    expect(response.body.result.cacheScope).toBeUndefined();
  });
});

describe('the sessionless 2026-07-28 era', () => {
  it('advertises 2026-07-28 through server/discover', async () => {
    const { message, headers } = modern('server/discover');
    const response = await exchange(message, headers);
    expect(response.status).toBe(200);
    expect(response.body.result.supportedVersions).toContain('2026-07-28');
    expect(response.body.result.capabilities).toEqual({ tools: { listChanged: false }, resources: { listChanged: false } });
  });

  it('marks tool lists cacheScope private, since they vary by key', async () => {
    const { message, headers } = modern('tools/list');
    const response = await exchange(message, { ...headers, authorization: `Bearer ${master.key}` });
    expect(response.status).toBe(200);
    expect(response.body.result).toMatchObject({ cacheScope: 'private', ttlMs: 0 });
    expect(response.body.result.tools.length).toBe(t.app.butik.registry.tools.length);
  });

  it('calls a tool named by the Mcp-Name header', async () => {
    const { message, headers } = modern('tools/call', { name: 'categories.list', arguments: {} });
    const response = await exchange(message, headers);
    expect(response.status).toBe(200);
    expect(response.body.result).toMatchObject({ structuredContent: { result: expect.any(Array) } });
  });

  it('rejects an Mcp-Name header that contradicts the body', async () => {
    const { message, headers } = modern('tools/call', { name: 'categories.list', arguments: {} }, { 'mcp-name': 'products.search' });
    const response = await exchange(message, headers);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: expect.any(Number) });
  });
});

describe('admission', () => {
  it('answers an invalid key with 401 unauthorized and the invalid_token challenge', async () => {
    const response = await post(initialize('2025-11-25'), { ...LEGACY_HEADERS, authorization: 'Bearer bk_not-a-key' });
    expectProblem(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toBe(MCP_INVALID_TOKEN_CHALLENGE);
    expect(response.headers['ratelimit-policy']).toBe('"preauth";q=3;w=60');
  });

  it('treats a non-Bearer Authorization as anonymous', async () => {
    const response = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
      { ...LEGACY_HEADERS, authorization: 'Basic dXNlcjpwYXNz', 'mcp-protocol-version': '2025-11-25' });
    expect(response.status).toBe(200);
    expect(response.headers['ratelimit-policy']).toBe('"anon";q=3;w=60');
  });

  it('counts requests under the REST rate-limit policies and answers 429 with Retry-After', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await post(initialize('2025-11-25'), LEGACY_HEADERS, ip)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await post(initialize('2025-11-25'), LEGACY_HEADERS, ip);
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers.ratelimit).toMatch(/^"anon";r=0;t=\d+$/);
  });

  it.each(['GET', 'DELETE'] as const)('answers %s with 405 and Allow: POST', async (method) => {
    const response = await send(t, { method, url: '/api/mcp', headers: { accept: 'text/event-stream' } });
    expectProblem(response, 405, 'method_not_allowed');
    expect(response.headers.allow).toBe('POST');
  });

  it.each(['https://evil.example', 'http://butik.test.evil.example', 'null'])('refuses Origin %s with 403', async (origin) => {
    const response = await post(initialize('2025-11-25'), { ...LEGACY_HEADERS, origin });
    expectProblem(response, 403, 'origin_not_allowed');
    const get = await send(t, { method: 'GET', url: '/api/mcp', headers: { origin } });
    expectProblem(get, 403, 'origin_not_allowed');
  });

  it.each(['http://butik.test', ALLOWED_ORIGIN])('serves Origin %s and lets it read the answer', async (origin) => {
    const response = await post(initialize('2025-11-25'), { ...LEGACY_HEADERS, origin });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(origin);
    const preflight = await send(t, { method: 'OPTIONS', url: '/api/mcp', headers: { origin, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('authorization');
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    const response = await send(t, { method: 'POST', url: '/api/mcp', headers: LEGACY_HEADERS, payload: '{not json', remoteAddress: nextIp() });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: -32700 });
  });
});

describe('idempotent tools/call', () => {
  function call(args: Record<string, unknown>, key: unknown) {
    return modern('tools/call', { name: 'categories.upsert', arguments: args, _meta: { 'butik/idempotencyKey': key } });
  }

  it('replays a REST call made with the same Idempotency-Key, sharing one key space per caller', async () => {
    const body = { slug: uniqueSlug('idem'), name: 'First write' };
    const rest = await t.call('categories.upsert', body, { ...master, ip: nextIp(), headers: { 'idempotency-key': 'shared-1' } });
    expect(rest.status).toBe(200);
    const { message, headers } = call(body, 'shared-1');
    const replay = await exchange(message, { ...headers, authorization: `Bearer ${master.key}` });
    expect(replay.body.result.structuredContent).toEqual(rest.body.result);
    expect(replay.body.result._meta).toMatchObject({ 'butik/idempotentReplayed': true });
  });

  it('stores an MCP call for a REST retry, and refuses the key for another body', async () => {
    const body = { slug: uniqueSlug('idem'), name: 'Via MCP first' };
    const { message, headers } = call(body, 'shared-2');
    const first = await exchange(message, { ...headers, authorization: `Bearer ${master.key}` });
    expect(first.body.result.isError).toBeUndefined();
    const retry = await t.call('categories.upsert', body, { ...master, ip: nextIp(), headers: { 'idempotency-key': 'shared-2' } });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.result).toEqual(first.body.result.structuredContent);

    const other = call({ ...body, name: 'Another body' }, 'shared-2');
    const reused = await exchange(other.message, { ...other.headers, authorization: `Bearer ${master.key}` });
    expect(reused.body.result.isError).toBe(true);
    expect(JSON.parse(reused.body.result.content[0].text)).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
  });

  it('refuses a malformed key in _meta as a validation failure', async () => {
    const { message, headers } = call({ slug: uniqueSlug('idem'), name: 'Never written' }, 42);
    const response = await exchange(message, { ...headers, authorization: `Bearer ${master.key}` });
    expect(response.body.result.isError).toBe(true);
    expect(JSON.parse(response.body.result.content[0].text)).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});

it('answers a body over 1 MiB with 413 payload_too_large before anything else', async () => {
  const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(1024 * 1024) } });
  const response = await send(t, { method: 'POST', url: '/api/mcp', headers: LEGACY_HEADERS, payload, remoteAddress: nextIp() });
  expectProblem(response, 413, 'payload_too_large');
});
