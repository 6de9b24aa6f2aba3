import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/access/api-keys.ts';
import { createTestApp, MASTER_KEY } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct } from '../helpers/fixtures.ts';
import { connect, listen } from '../mcp/mcp-client.ts';

let t: TestApp;
let url: URL;
let agent: string;
beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t);
  agent = (await createKey(t.database.db, { name: 'mcp-agent', scopes: ['products:write', 'catalog:read'] }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() })).key;
  const set = await t.app.inject({
    method: 'POST', url: '/api/v1/commands/policies.set', headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    payload: { document: { rules: [{ kind: 'price_drop', percentOver: 20 }, { kind: 'tool', tool: 'products.delete' }] } },
  });
  if (set.statusCode !== 200) throw new Error(set.body);
});
afterAll(async () => { await t?.close(); });

describe.each(['legacy', 'modern'] as const)('a held call over MCP (%s era)', (era) => {
  it('is not an error: the SDK client validates structuredContent against the output schema and gets pending + approval', async () => {
    const product = await createProduct(t, { priceDkk: 100000 });
    const client = await connect(url, { key: agent, era });
    try {
      // listTools first: the client keeps each tool's outputSchema and checks every structuredContent against it.
      await client.listTools();
      for (const [name, args] of [
        ['products.update', { slug: product.slug, patch: { priceDkk: 1000 } }],
        ['products.delete', { slug: product.slug, confirm: true }],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ pending: true, approval: { status: 'pending', url: expect.stringContaining('/admin/approvals/') } });
        const { approval } = result.structuredContent as { approval: { id: string; url: string } };
        const text = (result.content as Array<{ text: string }>)[0]!.text;
        expect(text).toContain(approval.url);
        expect(text).toContain('approvals.get');
        const polled = await client.callTool({ name: 'approvals.get', arguments: { id: approval.id } });
        expect(polled.structuredContent).toMatchObject({ id: approval.id, status: 'pending', tool: name });
      }
    } finally {
      await client.close();
    }
  });

  it('offers the agent no tool to approve or deny its own call', async () => {
    const client = await connect(url, { key: agent, era });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).filter((name) => name.startsWith('approvals.') || name.startsWith('policies.')).sort())
        .toEqual(['approvals.get', 'approvals.list']);
      await expect(client.callTool({ name: 'approvals.approve', arguments: { id: 'x' } })).rejects.toThrow(/Unknown tool/);
      await expect(client.callTool({ name: 'policies.set', arguments: {} })).rejects.toThrow(/Unknown tool/);
    } finally {
      await client.close();
    }
  });
});
