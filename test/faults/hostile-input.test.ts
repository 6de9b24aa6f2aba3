import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/edge/json-body.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { expectProblem, expectValidation, send } from '../helpers/http.ts';
import { LEGACY_HEADERS, rpc } from '../mcp/mcp-client.ts';

/**
 * Strings PostgreSQL cannot store and bodies built to exhaust a stack, sent to every tool of the registry
 * (not a hand-written list): each is a 400 at the exact path, never a 500.
 */
let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const NUL = 'Aviator\u0000Classic';
const LONE_SURROGATE = 'Aviator \ud800 Classic';
const TRAILING_SURROGATE = '\udc00';

function toolsWithFields() {
  return t.app.butik.registry.tools.map((tool) => {
    const properties = tool.inputJsonSchema.properties;
    const fields = properties && typeof properties === 'object' ? Object.keys(properties) : [];
    return { name: tool.name, fields };
  });
}

/** 200,000 levels of arrays inside a valid object: about 400 KB, well under the 1 MiB body limit. */
const DEEP_BODY = `{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;

describe('strings that cannot be stored', () => {
  it('refuses a NUL or a lone surrogate in any field of any tool with 400 at that field', async () => {
    const tools = toolsWithFields();
    expect(tools.length).toBe(t.app.butik.registry.tools.length);
    let probes = 0;
    for (const { name, fields } of tools) {
      for (const field of fields) {
        for (const [value, path] of [
          [NUL, field],
          [LONE_SURROGATE, field],
          [[TRAILING_SURROGATE], `${field}.0`],
          [{ note: NUL }, `${field}.note`],
        ] as const) {
          const response = await t.call(name, { [field]: value }, master);
          expectValidation(response, [path]);
          probes += 1;
        }
      }
    }
    expect(probes).toBeGreaterThan(400);
  });

  it('names the offending key of a JSON-typed field, and says what to do', async () => {
    const response = await t.call('products.create', {
      slug: 'x-nul', name: 'Nul', description: 'Ti tegn mindst her.', priceDkk: 10000, stock: 1, categorySlug: 'x',
      attributes: { 'materi\u0000ale': 'acetat', size: ['S', 'M\ud800'] },
    }, master);
    expectValidation(response, ['attributes.materi\u0000ale', 'attributes.size.1']);
    expect(response.body.errors.map((e: { message: string }) => e.message)).toEqual([
      'the key contains a NUL character (\\u0000), which cannot be stored; remove it',
      'contains a lone UTF-16 surrogate (half of a character), which cannot be stored; send well-formed Unicode',
    ]);
  });

  it('keeps well-formed text outside the Basic Multilingual Plane', async () => {
    const response = await t.call('categories.upsert', { slug: 'emoji-test', name: 'Solbriller 😎', description: 'Æ, ø og å 𝄞' }, master);
    expect(response.status).toBe(200);
    expect(response.body.result.name).toBe('Solbriller 😎');
  });

  it('refuses the same over MCP as a tool error with the problem', async () => {
    const response = await rpc(t, {
      jsonrpc: '2.0', id: 1, method: 'tools/call',
      params: { name: 'products.search', arguments: { q: NUL } },
    });
    expect(response.status).toBe(200);
    expect(response.body.result.isError).toBe(true);
    const problem = JSON.parse(response.body.result.content[0].text);
    expect(problem).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ path: 'q' }] });
  });
});

describe('key management', () => {
  it('refuses a NUL in a key name at its path and treats a NUL id as no key', async () => {
    const created = await send(t, {
      method: 'POST', url: '/api/v1/keys', payload: JSON.stringify({ name: NUL, scopes: ['catalog:read'] }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${master.key}` },
    });
    expectValidation(created, ['name']);
    const revoked = await send(t, { method: 'DELETE', url: '/api/v1/keys/%00', headers: { authorization: `Bearer ${master.key}` } });
    expectProblem(revoked, 404, 'not_found');
  });
});

describe(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`, () => {
  it('is 400 invalid_json for every tool, with an Idempotency-Key too', async () => {
    for (const tool of t.app.butik.registry.tools) {
      const response = await send(t, {
        method: 'POST', url: `/api/v1/tools/${tool.name}`, payload: DEEP_BODY,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${master.key}`, 'idempotency-key': `deep-${tool.name}` },
      });
      expectProblem(response, 400, 'invalid_json');
      expect(response.body.detail).toBe(`The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`);
    }
  });

  it('is 400 invalid_json on /api/mcp, idempotency key in _meta or not', async () => {
    const deepArguments = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"products.search",`
      + `"_meta":{"butik/idempotencyKey":"deep-mcp"},"arguments":{"q":${'['.repeat(200_000)}${']'.repeat(200_000)}}}}`;
    const response = await send(t, {
      method: 'POST', url: '/api/mcp', payload: deepArguments, headers: { ...LEGACY_HEADERS, authorization: `Bearer ${master.key}` },
    });
    expectProblem(response, 400, 'invalid_json');
  });

  it(`accepts ${MAX_JSON_DEPTH} levels, and brackets inside strings do not count`, async () => {
    const nested = JSON.parse(`${'['.repeat(MAX_JSON_DEPTH - 2)}"x"${']'.repeat(MAX_JSON_DEPTH - 2)}`);
    const response = await t.call('products.search', { q: `${'['.repeat(80)} solbriller`, brand: nested }, master);
    expectValidation(response, ['brand']);
  });
});

describe('the UCP routes in test mode', () => {
  const logLines: string[] = [];
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp({
      env: { BUTIK_UCP_MODE: 'test', BUTIK_UCP_SIMULATION_SECRET: 'fuzz-simulation-secret', LOG_LEVEL: 'info' },
      logger: true,
      logStream: { write: (line) => { logLines.push(line); } },
    });
  });
  afterAll(async () => { await shop?.close(); });

  const AGENT = 'profile="https://platform.example/profile"';
  const HOSTILE_IDS = [
    'a%00b', '%00', '%ED%A0%80', '%FF', '%C0%80', 'x'.repeat(300), '%27%20or%201%3D1--', '..%2F..%2Fetc%2Fpasswd',
    '%E2%80%AE', '%F0%9F%99%82', '%5Cu0000', '00000000-0000-0000-0000-000000000000',
  ];
  const ROUTES: Array<[method: 'GET' | 'PUT' | 'POST', path: (id: string) => string]> = [
    ['GET', (id) => `/checkout-sessions/${id}`],
    ['PUT', (id) => `/checkout-sessions/${id}`],
    ['POST', (id) => `/checkout-sessions/${id}/complete`],
    ['POST', (id) => `/checkout-sessions/${id}/cancel`],
    ['GET', (id) => `/orders/${id}`],
    ['PUT', (id) => `/orders/${id}`],
    ['POST', (id) => `/testing/simulate-shipping/${id}`],
  ];
  const BODIES: unknown[] = [
    {},
    { line_items: [{ item: { id: NUL }, quantity: 1 }], currency: 'DKK' },
    { line_items: [{ item: { id: 'aviator-classic' }, quantity: 1 }], currency: 'DKK', buyer: { email: NUL } },
    { line_items: [{ item: { id: LONE_SURROGATE }, quantity: -1 }], currency: NUL },
    { id: NUL, fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: NUL, street_address: TRAILING_SURROGATE }] }] } },
    { payment_data: { handler_id: NUL, id: 'x', type: 'card', credential: { token: LONE_SURROGATE } } },
    { fulfillment: { events: [{ id: NUL, occurred_at: 'yesterday', type: 'x', line_items: [] }] } },
    { [NUL]: 1, discounts: { codes: [NUL, LONE_SURROGATE] } },
    'not json', '[]', 'null', DEEP_BODY,
  ];

  async function request(method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    return shop.app.inject({
      method, url,
      headers: { 'ucp-agent': AGENT, 'simulation-secret': 'fuzz-simulation-secret', 'idempotency-key': `fuzz-${Math.random()}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload } : {}),
    });
  }

  it('answers every hostile id with 404 in the UCP error shape, and hostile bodies with a 4xx, never a 5xx', async () => {
    const answers: Array<{ at: string; status: number }> = [];
    for (const [method, path] of ROUTES) {
      for (const id of HOSTILE_IDS) {
        const response = await request(method, path(id), method === 'GET' ? undefined : {});
        answers.push({ at: `${method} ${path(id)}`, status: response.statusCode });
        // Paths the router cannot decode are refused before any route, as a problem; the rest in UCP's shape.
        expect(JSON.parse(response.body)).toMatchObject({ code: expect.any(String) });
      }
      for (const body of BODIES) {
        if (method === 'GET') continue;
        const response = await request(method, path('00000000-0000-0000-0000-000000000000'), body);
        answers.push({ at: `${method} ${path('…')} ${String(body).slice(0, 20)}`, status: response.statusCode });
      }
    }
    for (const body of BODIES) {
      const response = await request('POST', '/checkout-sessions', body);
      answers.push({ at: `POST /checkout-sessions ${JSON.stringify(body).slice(0, 40)}`, status: response.statusCode });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
    }
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    const malformed = answers.filter((answer) => /a%00b|\/%00|%ED%A0%80|x{300}/.test(answer.at));
    expect(malformed.filter((answer) => answer.status !== 404 && !answer.at.startsWith('POST /testing'))).toEqual([]);
  });

  it('answers hostile ids over /ucp/mcp as tool errors, not failures', async () => {
    for (const name of ['get_checkout', 'cancel_checkout', 'complete_checkout']) {
      const response = await send(shop, {
        method: 'POST', url: '/ucp/mcp', headers: LEGACY_HEADERS,
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { id: NUL, idempotency_key: 'k' }, _meta: { ucp: { profile: 'https://platform.example/profile' } } } }),
      });
      expect(response.status).toBeLessThan(500);
      expect(JSON.stringify(response.body)).not.toMatch(/INTERNAL_ERROR/);
    }
  });

  it('writes no SQL text or parameter into any log line', () => {
    expect(logLines.length).toBeGreaterThan(100);
    const leaking = logLines.filter((line) => /\b(select|insert into|update|delete from)\b.*\b(from|set|values|where)\b|Failed query|params:|\\u0000|"detail"/i.test(line));
    expect(leaking).toEqual([]);
  });
});

describe('the OAuth server and the console, which no tool schema guards', () => {
  const NUL_ID = 'abc%00def';
  const HUGE = 'x'.repeat(300_000);
  const requests: Array<{ method: 'GET' | 'POST'; url: string; type?: string; body?: string }> = [
    { method: 'POST', url: '/oauth/register', type: 'application/json', body: JSON.stringify({ client_name: NUL, redirect_uris: ['http://127.0.0.1:9/cb'] }) },
    { method: 'POST', url: '/oauth/register', type: 'application/json', body: '{"client_name": ' },
    { method: 'POST', url: '/oauth/register', type: 'application/json', body: DEEP_BODY },
    { method: 'POST', url: '/oauth/register', type: 'application/json', body: JSON.stringify({ client_name: HUGE, redirect_uris: ['http://127.0.0.1:9/cb'] }) },
    { method: 'POST', url: '/oauth/token', type: 'application/x-www-form-urlencoded', body: 'grant_type=authorization_code&client_id=%00&code=%00' },
    { method: 'POST', url: '/oauth/token', type: 'application/x-www-form-urlencoded', body: `grant_type=${HUGE}` },
    { method: 'POST', url: '/oauth/token', type: 'application/json', body: '{' },
    { method: 'GET', url: '/oauth/authorize?client_id=%00&response_type=code' },
    { method: 'GET', url: `/oauth/authorize?client_id=${'a'.repeat(5000)}&response_type=code&redirect_uri=%ZZ` },
    { method: 'POST', url: `/oauth/consent/${NUL_ID}`, type: 'application/x-www-form-urlencoded', body: 'master_key=%00' },
    { method: 'GET', url: `/oauth/link/${NUL_ID}` },
    { method: 'POST', url: '/admin/login', type: 'application/x-www-form-urlencoded', body: 'email=a%00b%40shop.dk&password=%00' },
    { method: 'POST', url: '/admin/login', type: 'application/x-www-form-urlencoded', body: `email=${HUGE}&password=${HUGE}` },
    { method: 'POST', url: '/admin/login', type: 'application/json', body: DEEP_BODY },
    { method: 'POST', url: `/admin/keys/${NUL_ID}/revoke`, type: 'application/x-www-form-urlencoded', body: '_csrf=%00' },
    { method: 'GET', url: `/admin/products/${NUL_ID}` },
    { method: 'GET', url: `/admin/orders/${'%ff'.repeat(50)}` },
    { method: 'GET', url: `/admin/activity?actor=${NUL_ID}&before=%00` },
  ];

  it.each(requests)('answers $method $url with a 4xx or a redirect, never a 5xx', async ({ method, url, type, body }) => {
    const response = await t.app.inject({ method, url, ...(type ? { headers: { 'content-type': type } } : {}), ...(body === undefined ? {} : { payload: body }) });
    expect({ url, status: response.statusCode }).toEqual({ url, status: expect.any(Number) });
    expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
  });
});
