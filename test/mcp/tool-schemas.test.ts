import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describesObjects, mcpSchemaFor } from '../../src/mcp/tool-catalog.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { send } from '../helpers/http.ts';
import { LEGACY_HEADERS, rpc } from './mcp-client.ts';

type Json = Record<string, any>;

let t: TestApp;
let openapi: Json;
beforeAll(async () => {
  t = await createTestApp();
  openapi = (await send(t, { method: 'GET', url: '/api/v1/openapi.json' })).body;
});
afterAll(async () => { await t?.close(); });

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'schema-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** tools/list as the master key sees it, in either era. */
async function listTools(era: 'legacy' | 'modern'): Promise<Json[]> {
  const headers = { ...LEGACY_HEADERS, authorization: `Bearer ${master.key}` };
  const response = era === 'legacy'
    ? await rpc(t, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { ...headers, 'mcp-protocol-version': '2025-11-25' })
    : await rpc(t, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } },
      { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
  expect(response.status).toBe(200);
  return response.body.result.tools;
}

function restSchemas(name: string): { input: Json; output: Json } {
  const op = openapi.paths[`/api/v1/tools/${name}`].post;
  return {
    input: op.requestBody.content['application/json'].schema,
    output: op.responses['200'].content['application/json'].schema.properties.result,
  };
}

/**
 * CONTRACT §6, §11: the MCP schema is the OpenAPI schema itself; a union of object shapes only gains
 * the `type: "object"` MCP requires at the root; anything else is wrapped as {result: <schema>}.
 */
function expectedMcpSchema(rest: Json): Json {
  if (rest.type === 'object') return rest;
  if (describesObjects(rest)) return { type: 'object', ...rest };
  return { type: 'object', properties: { result: rest }, required: ['result'] };
}

describe.each(['legacy', 'modern'] as const)('tools/list on the %s era', (era) => {
  it('carries, for every tool, the input and output schema of the OpenAPI document', async () => {
    const tools = await listTools(era);
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(openapi.paths).filter((path) => path.startsWith('/api/v1/tools/')).map((path) => path.split('/').at(-1)).sort());
    for (const tool of tools) {
      const rest = restSchemas(tool.name);
      expect({ name: tool.name, input: tool.inputSchema }).toEqual({ name: tool.name, input: expectedMcpSchema(rest.input) });
      expect({ name: tool.name, output: tool.outputSchema }).toEqual({ name: tool.name, output: expectedMcpSchema(rest.output) });
    }
  });
});

describe('object wrapping', () => {
  it('wraps array results and leaves object results alone', () => {
    const search = restSchemas('products.search').output;
    const get = restSchemas('products.get').output;
    expect(mcpSchemaFor(search)).toEqual({ wraps: true, schema: { type: 'object', properties: { result: search }, required: ['result'] } });
    expect(mcpSchemaFor(get)).toEqual({ wraps: false, schema: get });
    expect(mcpSchemaFor(get).schema).toBe(get);
  });

  it('stamps type object on a union of object shapes instead of wrapping it', () => {
    const union = { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'integer' } } }] };
    expect(mcpSchemaFor(union)).toEqual({ wraps: false, schema: { type: 'object', ...union } });
  });

  it('wraps a nullable object and keeps $defs at the root where its references point', () => {
    const nullable = {
      anyOf: [{ $ref: '#/$defs/Layout' }, { type: 'null' }],
      $defs: { Layout: { type: 'object', properties: { sections: { type: 'array' } } } },
    };
    expect(mcpSchemaFor(nullable)).toEqual({
      wraps: true,
      schema: {
        type: 'object',
        properties: { result: { anyOf: nullable.anyOf } },
        required: ['result'],
        $defs: nullable.$defs,
      },
    });
  });
});
