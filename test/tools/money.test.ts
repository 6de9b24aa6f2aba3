import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry } from '../../src/tools/registry.ts';
import { properties } from '../helpers/json-schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { uniqueCode } from '../helpers/commerce.ts';
import { createCategory, master, uniqueSlug } from '../helpers/fixtures.ts';
import { LEGACY_HEADERS, connect, listen, rpc } from '../mcp/mcp-client.ts';

let t: TestApp;
let categorySlug: string;
beforeAll(async () => {
  t = await createTestApp();
  categorySlug = (await createCategory(t)).slug;
});
afterAll(async () => { await t?.close(); });

const product = (priceDkk: number) => ({
  slug: uniqueSlug('pris'), name: 'Prisstel', description: 'Et stel til at prøve priser.', priceDkk, stock: 1, categorySlug,
});

describe('a price or fixed discount under one krone', () => {
  it('is created, the result stays exact, and a warning beside it says what 99 øre is', async () => {
    const response = await t.call('products.create', product(99), master);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.result).sort()).toEqual(['id', 'slug']);
    expect(response.body.warnings).toEqual([{
      code: 'amount_below_one_krone',
      message: 'priceDkk is in øre (1/100 DKK): 99 øre is 0,99 kr. If you meant 99 kr, send 9900.',
    }]);
    const stored = await t.call('products.get', { slug: response.body.result.slug });
    expect(stored.body.result.priceDkk).toBe(99);
  });

  it('is described in the OpenAPI success envelope with the codes it can carry', async () => {
    const document = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    const envelope = document.paths['/api/v1/tools/products.create'].post.responses['200'].content['application/json'].schema;
    expect(envelope.required).toEqual(['ok', 'result']);
    expect(envelope.properties.warnings.items).toMatchObject({
      required: ['code', 'message'],
      properties: { code: { enum: ['amount_below_one_krone'] }, message: { type: 'string' } },
    });
  });

  it('warns on products.update and on a fixed discount, never on a price of 1 kr or a percent discount', async () => {
    const created = await t.call('products.create', product(100), master);
    expect(created.body).toEqual({ ok: true, result: { id: expect.any(String), slug: expect.any(String) } });
    const updated = await t.call('products.update', { slug: created.body.result.slug, patch: { priceDkk: 5 } }, master);
    expect(updated.body.warnings).toEqual([expect.objectContaining({ message: expect.stringContaining('patch.priceDkk is in øre') })]);
    const fixed = await t.call('discounts.create', { code: uniqueCode('LILLE'), type: 'fixed', value: 50 }, master);
    expect(fixed.body.warnings).toEqual([expect.objectContaining({ message: expect.stringContaining('50 øre is 0,50 kr') })]);
    const percent = await t.call('discounts.create', { code: uniqueCode('PCT'), type: 'percent', value: 50 }, master);
    expect(percent.body.warnings).toBeUndefined();
  });

  it('repeats the warning when an idempotent retry replays the answer', async () => {
    const headers = { 'idempotency-key': `money-${Date.now()}` };
    const body = product(42);
    const first = await t.call('products.create', body, { ...master, headers });
    const replay = await t.call('products.create', body, { ...master, headers });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.body.warnings).toHaveLength(1);
  });

  it('reaches an MCP caller in structuredContent beside the result, and as a text of its own after the result\'s JSON', async () => {
    const response = await rpc(t, {
      jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'products.create', arguments: product(99) },
    }, { ...LEGACY_HEADERS, authorization: `Bearer ${master.key}`, 'mcp-protocol-version': '2025-11-25' });
    const { content, structuredContent } = response.body.result;
    const { warnings, ...result } = structuredContent;
    expect(Object.keys(result).sort()).toEqual(['id', 'slug']);
    expect(warnings).toEqual([{ code: 'amount_below_one_krone', message: expect.stringMatching(/^priceDkk is in øre/) }]);
    expect(JSON.parse(content[0].text)).toEqual(result);
    expect(content[1]).toEqual({ type: 'text', text: expect.stringMatching(/^Warning \(amount_below_one_krone\): priceDkk is in øre/) });
  });

  it('passes the official SDK client\'s check of structuredContent against the output schema, which names warnings', async () => {
    const client = await connect(await listen(t), { key: master.key });
    try {
      const { tools } = await client.listTools();
      const create = tools.find((tool) => tool.name === 'products.create');
      // A write's output schema is its result or the held answer of a policy (docs/behaviour.md#a-held-call).
      const [resultSchema] = (create?.outputSchema as { anyOf?: Array<{ properties?: object }> } | undefined)?.anyOf ?? [];
      expect(resultSchema?.properties).toHaveProperty('warnings');
      expect(tools.find((tool) => tool.name === 'products.get')?.outputSchema?.properties).not.toHaveProperty('warnings');
      const called = await client.callTool({ name: 'products.create', arguments: product(50) });
      expect(called.isError).not.toBe(true);
      expect(called.structuredContent).toMatchObject({ warnings: [{ code: 'amount_below_one_krone' }] });
    } finally {
      await client.close();
    }
  });
});

describe('money fields read as øre everywhere', () => {
  const MONEY_FIELD = /(Dkk|Oere)$/;
  const WORKED_EXAMPLE = /Example: \d+ = [\d.]+,\d\d kr\./;

  it.each(buildRegistry().tools.map((tool) => [tool.name, tool]))('%s describes each money field in øre with an example', (_name, tool) => {
    for (const [io, schema] of [['input', tool.inputJsonSchema], ['output', tool.outputJsonSchema]] as const) {
      for (const [path, field] of properties(schema)) {
        if (!MONEY_FIELD.test(path)) continue;
        const description = String(field.description ?? '');
        expect(description, `${io} ${path}`).toMatch(/^øre \(1\/100 DKK\)/);
        expect(description, `${io} ${path}`).toMatch(WORKED_EXAMPLE);
      }
    }
  });
});
