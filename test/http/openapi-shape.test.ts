import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/access/scopes.ts';
import { PROBLEM_CODES } from '../../src/errors/problems.ts';
import { createTestApp, BASE_URL } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { send } from '../helpers/http.ts';

// The document is walked by path in every direction; its shape is what these tests check.
type Json = Record<string, any>;

/** The only tools an anonymous client may use. */
const ANONYMOUS_TOOLS = ['products.search', 'products.get', 'categories.list', 'site.list_pages', 'site.get_page'];
const REDOCLY = resolve('node_modules/.bin/redocly');
const FAILURE_STATUSES = ['400', '401', '403', '422', '429', '500', 'default'];

let t: TestApp;
let doc: Json;
beforeAll(async () => {
  t = await createTestApp();
  const response = await send(t, { method: 'GET', url: '/api/v1/openapi.json' });
  expect(response.status).toBe(200);
  doc = response.body;
});
afterAll(async () => { await t?.close(); });

/** The tool operations; the key routes (below) are the only other paths. */
function operations(): Array<[string, Json]> {
  return Object.entries(doc.paths as Record<string, Json>)
    .filter(([path]) => path.startsWith('/api/v1/tools/'))
    .map(([path, item]) => [path, item.post]);
}

/** Every object schema in a JSON Schema tree, with where it sits. */
function objectSchemas(schema: unknown, at = '$'): Array<[string, Json]> {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as Json;
  const own: Array<[string, Json]> = node.type === 'object' || node.properties ? [[at, node]] : [];
  const children = Object.entries(node).flatMap(([key, value]) => {
    if (Array.isArray(value)) return value.flatMap((item, i) => objectSchemas(item, `${at}.${key}[${i}]`));
    return objectSchemas(value, `${at}.${key}`);
  });
  return [...own, ...children];
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1.0 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
  });

  it('passes redocly lint (recommended rules) with no errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'butik-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      const { stdout } = await promisify(execFile)(REDOCLY, ['lint', file, '--format=json'], {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 32 * 1024 * 1024,
      });
      const report = JSON.parse(stdout);
      const errors = report.problems.filter((problem: Json) => problem.severity === 'error');
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('names every problem code, and each has its /problems page', async () => {
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual(PROBLEM_CODES);
    for (const code of PROBLEM_CODES) {
      const page = await send(t, { method: 'GET', url: `/problems/${code}` });
      expect({ code, status: page.status }).toEqual({ code, status: 200 });
    }
  });

  it('has the documented title, version, licence and server', () => {
    expect(doc.info).toMatchObject({ title: 'Butik Agent API', version: '1.0.0', license: { name: 'MIT', identifier: 'MIT' } });
    expect(doc.servers).toEqual([{ url: BASE_URL }]);
  });

  it('declares the bearerAuth scheme and the supported scopes', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc['x-service-supported-scopes']).toEqual([
      'analytics:read', 'audit:read', 'audit:revert', 'cart:write', 'catalog:read', 'categories:read',
      'categories:write', 'customer:read', 'discounts:read', 'discounts:write', 'features:read', 'features:write',
      'marketing:write', 'orders:read', 'orders:write', 'pages:read', 'pages:write', 'products:write',
      'settings:read', 'settings:write',
    ]);
  });

  it('has exactly one POST operation per registered tool, named invoke_<name>', () => {
    const tools = t.app.butik.registry.tools;
    expect(operations().map(([path]) => path).sort()).toEqual(tools.map((tool) => `/api/v1/tools/${tool.name}`).sort());
    for (const tool of tools) {
      const item = doc.paths[`/api/v1/tools/${tool.name}`];
      expect(Object.keys(item)).toEqual(['post']);
      expect(item.post.operationId).toBe(`invoke_${tool.name.replaceAll('.', '_')}`);
    }
    const ids = operations().map(([, op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes the key routes under the master-key scheme, with their exact result shapes', () => {
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/api/v1/tools/')).sort())
      .toEqual(['/api/v1/keys', '/api/v1/keys/{id}', '/api/v1/keys/{id}/rotate']);
    expect(doc.components.securitySchemes.masterKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const create = doc.paths['/api/v1/keys'].post;
    expect(create).toMatchObject({ operationId: 'create_key', security: [{ masterKey: [] }], tags: ['keys'] });
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name', 'scopes']);
    const issued = create.responses['201'].content['application/json'].schema.properties.result;
    expect(Object.keys(issued.properties).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'key', 'name', 'prefix', 'scopes']);
    expect(doc.paths['/api/v1/keys'].get.operationId).toBe('list_keys');
    expect(doc.paths['/api/v1/keys/{id}/rotate'].post.operationId).toBe('rotate_key');
    expect(doc.paths['/api/v1/keys/{id}'].delete.responses['200'].content['application/json'].schema.properties.result.required)
      .toEqual(['id', 'revokedAt']);
  });

  it('marks the required scope and anonymous reads on every operation', () => {
    for (const tool of t.app.butik.registry.tools) {
      const op = doc.paths[`/api/v1/tools/${tool.name}`].post;
      expect([...SCOPES, 'any']).toContain(op['x-service-required-scope']);
      expect(op['x-service-required-scope']).toBe(tool.scope);
      expect(op['x-service-anonymous-read']).toBe(tool.anonymous === true);
      if (tool.anonymous) expect(op.security).toEqual([]);
      else expect(op.security).toEqual([{ bearerAuth: tool.scope === 'any' ? [] : [tool.scope] }]);
    }
  });

  it('opens only the anonymous tools, and every one of them that exists', () => {
    const anonymous = operations().filter(([, op]) => op['x-service-anonymous-read'] === true)
      .map(([path]) => path.replace('/api/v1/tools/', ''));
    for (const name of anonymous) expect(ANONYMOUS_TOOLS).toContain(name);
    const registered = new Set(t.app.butik.registry.tools.map((tool) => tool.name));
    expect(anonymous.sort()).toEqual(ANONYMOUS_TOOLS.filter((name) => registered.has(name)).sort());
    for (const name of ['products.search', 'products.get', 'categories.list']) expect(anonymous).toContain(name);
  });

  it('gives the site reads scope pages:read', () => {
    for (const name of ['site.list_pages', 'site.get_page']) {
      // A renamed tool fails here instead of passing without a check.
      expect(doc.paths[`/api/v1/tools/${name}`]?.post?.['x-service-required-scope'], name).toBe('pages:read');
    }
  });

  it('lists responses 200, 400, 401, 403, 422, 429, 500 and default on every operation', () => {
    for (const [path, op] of operations()) {
      for (const status of ['200', ...FAILURE_STATUSES]) expect(op.responses[status], `${path} ${status}`).toBeDefined();
    }
  });

  it('describes failures as application/problem+json and 429 with Retry-After', () => {
    const { responses, schemas } = doc.components;
    for (const name of ['BadRequest', 'Unauthorized', 'Forbidden', 'Unprocessable', 'RateLimited', 'InternalError', 'Problem']) {
      expect(Object.keys(responses[name].content)).toEqual(['application/problem+json']);
    }
    expect(responses.RateLimited.headers['Retry-After']).toBeDefined();
    expect(responses.Unauthorized.headers['WWW-Authenticate']).toBeDefined();
    expect(schemas.Problem.required).toEqual(['type', 'title', 'status', 'detail', 'instance', 'code', 'resolution', 'ok', 'error']);
  });

  it('requires a JSON request body on every operation', () => {
    for (const [path, op] of operations()) {
      expect(op.requestBody.required, path).toBe(true);
      const schema = op.requestBody.content['application/json'].schema;
      const branches: Json[] = schema.anyOf ?? schema.oneOf ?? [schema];
      for (const branch of branches) expect(branch.type, path).toBe('object');
    }
  });

  it('closes every object in every result schema and request schema', () => {
    for (const [path, op] of operations()) {
      const success = op.responses['200'].content['application/json'].schema;
      expect(success.additionalProperties, path).toBe(false);
      for (const [at, schema] of [...objectSchemas(success.properties.result), ...objectSchemas(op.requestBody.content['application/json'].schema)]) {
        // Free-form maps (attributes, comparisonFacts) are objects whose extra members are typed, never open.
        if (schema.properties) expect(schema.additionalProperties, `${path} ${at}`).toBe(false);
        else expect(schema.additionalProperties, `${path} ${at}`).toBeTypeOf('object');
      }
    }
  });

  it('shows the exact result of products.search', () => {
    const op = doc.paths['/api/v1/tools/products.search'].post;
    const result = op.responses['200'].content['application/json'].schema.properties.result;
    expect(result.type).toBe('array');
    expect(Object.keys(result.items.properties).sort()).toEqual([
      'brand', 'categoryName', 'categorySlug', 'featured', 'firstImage', 'frameColor', 'id', 'lensColor', 'name',
      'priceDkk', 'slug', 'stock',
    ]);
    expect(result.items.required.sort()).toEqual(Object.keys(result.items.properties).sort());
  });

  it('states the documented bounds in the request schemas', () => {
    const search = doc.paths['/api/v1/tools/products.search'].post.requestBody.content['application/json'].schema.properties;
    expect(search.limit).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    expect(search.offset).toMatchObject({ minimum: 0, maximum: 10000, default: 0 });
    expect(search.minPriceOere).toMatchObject({ minimum: 0, maximum: 9007199254740991 });
    const attach = doc.paths['/api/v1/tools/products.attach_image'].post.requestBody.content['application/json'].schema.properties;
    expect(attach.alt.maxLength).toBe(200);
  });

  it('is served with a JSON content type', async () => {
    const response = await send(t, { method: 'GET', url: '/api/v1/openapi.json' });
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  });
});
