import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanInputSchema, leanOutputSchema } from '../../src/mcp/lean-schema.ts';
import { mcpSchemaFor } from '../../src/mcp/tool-catalog.ts';
import { buildRegistry } from '../../src/tools/registry.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { send } from '../helpers/http.ts';
import { LEGACY_HEADERS, rpc } from './mcp-client.ts';

type Json = Record<string, any>;

const WARNING_TOOLS = new Set(buildRegistry().tools.filter((tool) => tool.warnings !== undefined).map((tool) => tool.name));
const WRITE_TOOLS = new Set(buildRegistry().tools.filter((tool) => !tool.annotations.readOnlyHint).map((tool) => tool.name));

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

describe.each(['legacy', 'modern'] as const)('tools/list on the %s era', (era) => {
  it('carries, for every tool, the lean form of the input and output schema of the OpenAPI document', async () => {
    const tools = await listTools(era);
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(openapi.paths).filter((path) => path.startsWith('/api/v1/tools/')).map((path) => path.split('/').at(-1)).sort());
    for (const tool of tools) {
      const rest = restSchemas(tool.name);
      expect({ name: tool.name, input: tool.inputSchema }).toEqual({ name: tool.name, input: mcpSchemaFor(leanInputSchema(rest.input)).schema });
      const output = mcpSchemaFor(leanOutputSchema(rest.output)).schema;
      // A tool that may warn names the optional `warnings` member its structuredContent then carries.
      const result = WARNING_TOOLS.has(tool.name)
        ? { ...output, properties: { ...(output.properties as Json), warnings: { type: 'array', items: expect.objectContaining({ required: ['code', 'message'] }) } } }
        : output;
      // A write tool's call may be held instead (docs/behaviour.md#a-held-call): its structuredContent is then the held answer.
      const { $defs, ...natural } = result;
      const expected = WRITE_TOOLS.has(tool.name)
        ? { type: 'object', anyOf: [natural, expect.objectContaining({ required: ['pending', 'approval'] })], ...($defs === undefined ? {} : { $defs }) }
        : result;
      expect({ name: tool.name, output: tool.outputSchema }).toEqual({ name: tool.name, output: expected });
    }
  });

  it('describes every input field of every tool, so an agent never meets a bare name', async () => {
    const undescribed = (await listTools(era)).flatMap((tool) => {
      const schema: Json = tool.inputSchema;
      return Object.entries<Json>(schema.properties ?? {})
        .filter(([, field]) => typeof (field.description ?? schema.$defs?.[String(field.$ref).split('/').at(-1) ?? '']?.description) !== 'string')
        .map(([name]) => `${tool.name}.${name}`);
    });
    expect(undescribed).toEqual([]);
  });

  it('lists all 56 tools in under 105 KB (123 KB before): no date-time regex, no ±(2^53 − 1) bounds, repeated subtrees written once', async () => {
    const tools = await listTools(era);
    const text = JSON.stringify({ tools });
    // The goal is 40 KB (docs/behaviour.md#the-tool-list). The output schemas every result is checked against take
    // ~24 KB, the input fields' descriptions ~16 KB (search's fields say exactly what they match), the tool
    // descriptions ~13 KB, a complete example call per tool ~4 KB, names and annotations ~8 KB; the rest is shape.
    // The held answer each write tool's output schema admits beside its result takes ~13 KB of it (33 × ~400 bytes).
    // The five shipping.* tools add ~8 KB, cart.checkout's shipping.country and the one shipping rule in the cart
    // descriptions ~1.5 KB: 97 KB before them.
    expect(text.length).toBeLessThan(105_000);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(text).not.toMatch(/"format":"date-time","pattern"|"pattern":"[^"]*","format"/);
    const layout = tools.find((tool) => tool.name === 'pages.set_layout');
    expect(Object.keys(layout?.inputSchema.$defs ?? {})).not.toHaveLength(0);
    // Short subtrees are shared too when that saves bytes: an order's many nullable strings are one definition.
    const order = tools.find((tool) => tool.name === 'orders.get');
    expect(Object.values(order?.outputSchema.$defs ?? {})).toContainEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(JSON.stringify(order?.outputSchema)).not.toContain('"billingCity":{"anyOf"');
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        for (const [, name] of JSON.stringify(schema).matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)) {
          expect({ tool: tool.name, resolves: name !== undefined && name in (schema.$defs ?? {}) }).toEqual({ tool: tool.name, resolves: true });
        }
      }
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
