import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { flowerShop, ucp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await flowerShop({ env: { BUTIK_RATE_LIMITS: 'anon:1000,preauth:1000,key:1000,ucp:3' } }); });
afterAll(async () => { await t?.close(); });

describe('/.well-known/ucp', () => {
  it('publishes, for 2026-01-11, the shopping service at BASE_URL, the capabilities, the handlers and a public ES256 key', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/ucp/2026-01-11' });
    expect(response.statusCode).toBe(200);
    const profile = JSON.parse(response.body);
    expect(profile.ucp).toMatchObject({
      version: '2026-01-11',
      services: {
        'dev.ucp.shopping': {
          version: '2026-01-11',
          rest: { schema: 'https://ucp.dev/services/shopping/rest.openapi.json', endpoint: 'http://butik.test' },
          mcp: { schema: 'https://ucp.dev/services/shopping/mcp.openrpc.json', endpoint: 'http://butik.test/ucp/mcp' },
        },
      },
    });
    expect(profile.ucp.capabilities.map((capability: { name: string }) => capability.name)).toEqual([
      'dev.ucp.shopping.checkout', 'dev.ucp.shopping.order', 'dev.ucp.shopping.fulfillment', 'dev.ucp.shopping.discount', 'dev.ucp.shopping.buyer_consent',
    ]);
    expect(profile.payment.handlers).toEqual([expect.objectContaining({ id: 'mock_payment_handler', name: 'dev.ucp.mock_payment' })]);
    expect(profile.payment.handlers[0]).not.toHaveProperty('processor');
    expect(profile.signing_keys).toEqual([{ kid: expect.stringMatching(/^butik-/), kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), use: 'sig', alg: 'ES256' }]);
    const again = JSON.parse((await t.app.inject({ method: 'GET', url: '/.well-known/ucp' })).body);
    expect(again.ucp.version).toBe('2026-04-08');
    expect(again.signing_keys).toEqual(profile.signing_keys);
  });

  it('is not counted by the ucp rate limit, which counts the checkout routes per IP', async () => {
    for (let i = 0; i < 5; i += 1) expect((await t.app.inject({ method: 'GET', url: '/.well-known/ucp' })).statusCode).toBe(200);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push(await ucp(t, 'GET', '/checkout-sessions/none'));
    expect(statuses.map((answer) => answer.status)).toEqual([404, 404, 404, 429]);
    expect(statuses[3]?.body.code).toBe('RATE_LIMITED');
    expect(Number(statuses[3]?.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('the OpenAPI document and /docs', () => {
  it('describe the UCP routes, their requests and the UCP error', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body);
    const ucpPaths = Object.keys(doc.paths).filter((path) => !path.startsWith('/api/'));
    expect(ucpPaths).toEqual([
      '/checkout-sessions', '/checkout-sessions/{id}', '/checkout-sessions/{id}/complete', '/checkout-sessions/{id}/cancel', '/orders/{id}',
      '/catalog/search', '/catalog/lookup', '/catalog/product', '/carts', '/carts/{id}', '/carts/{id}/cancel',
    ]);
    const create = doc.paths['/checkout-sessions'].post;
    expect(create).toMatchObject({ operationId: 'ucp_create_checkout', tags: ['ucp'], responses: { 201: {}, 400: {}, 422: {}, 429: {} } });
    expect(create.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(['UCP-Agent', 'Request-Id', 'Request-Signature', 'Signature-Input', 'Signature', 'Content-Digest', 'Idempotency-Key']);
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['line_items']);
    expect(doc.components.schemas.UcpError.required).toEqual(['status', 'messages', 'code', 'detail']);
    // Catalog and cart bodies are the schemas their routes read; their failures are 2026-04-08's error_response.
    const search = doc.paths['/catalog/search'].post;
    expect(Object.keys(search.requestBody.content['application/json'].schema.properties)).toEqual(['query', 'context', 'filters', 'pagination']);
    expect(search.responses[400].content['application/json'].schema).toEqual({ $ref: 'https://ucp.dev/schemas/shopping/types/error_response.json' });
    const createCart = doc.paths['/carts'].post;
    expect(createCart).toMatchObject({ operationId: 'ucp_create_cart', responses: { 201: {}, 400: {}, 422: {}, 429: {} } });
    expect(createCart.requestBody.content['application/json'].schema.required).toEqual(['line_items']);
    expect(createCart.parameters.map((parameter: { name: string }) => parameter.name)).toContain('Idempotency-Key');
    expect(doc.paths['/carts/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path' });
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toContain('ucp');
    const docs = (await t.app.inject({ method: 'GET', url: '/docs' })).body;
    expect(docs).toContain('<h2 id="ucp">UCP checkout for shopping agents</h2>');
    expect(docs).toContain('<code>POST /checkout-sessions/{id}/complete</code>');
  });
});

describe('BUTIK_UCP_MODE=off', () => {
  it('serves none of the UCP routes', async () => {
    const off = await createTestApp();
    try {
      expect((await off.app.inject({ method: 'GET', url: '/.well-known/ucp' })).statusCode).toBe(404);
      expect((await ucp(off, 'POST', '/checkout-sessions', {})).status).toBe(404);
      const doc = JSON.parse((await off.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body);
      expect(Object.keys(doc.paths).every((path) => path.startsWith('/api/'))).toBe(true);
      expect((await off.app.inject({ method: 'GET', url: '/docs' })).body).not.toContain('id="ucp"');
    } finally {
      await off.close();
    }
  });
});
