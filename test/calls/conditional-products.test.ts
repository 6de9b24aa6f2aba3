import type { Client } from '@modelcontextprotocol/client';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';
import { expectProblem } from '../helpers/http.ts';
import { connect, listen } from '../mcp/mcp-client.ts';

let t: TestApp;
let url: URL;
beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t);
});
afterAll(async () => { await t?.close(); });

async function withClient<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(url, { key: master.key, era: 'modern' });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

async function read(slug: string) {
  const got = await t.call('products.get', { slug });
  expect(got.status).toBe(200);
  return { record: got.body.result, etag: String(got.headers.etag) };
}

describe('products: ETag and If-Match over REST', () => {
  it('hands out a strong quoted ETag that changes with every write', async () => {
    const { slug } = await createProduct(t, { stock: 5 });
    const first = await read(slug);
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect((await read(slug)).etag).toBe(first.etag);
    expect((await t.call('products.update', { slug, patch: { stock: 6 } }, master)).status).toBe(200);
    expect((await read(slug)).etag).not.toBe(first.etag);
  });

  it('writes when If-Match names the current version and answers the new ETag', async () => {
    const { slug } = await createProduct(t, { stock: 5 });
    const { etag } = await read(slug);
    const updated = await t.call('products.update', { slug, patch: { stock: 7 } }, { ...master, headers: { 'if-match': etag } });
    expect(updated.status).toBe(200);
    const after = await read(slug);
    expect(after.record.stock).toBe(7);
    expect(updated.headers.etag).toBe(after.etag);
  });

  it('owner edits with an old ETag after an agent cut the price: 412 with the current record, price kept', async () => {
    const { id, slug } = await createProduct(t, { priceDkk: 129900, stock: 5 });
    const owner = await read(slug);
    const agentKey = await t.keyWith('products:write');
    expect((await t.call('products.update', { slug, patch: { priceDkk: 99900 } }, { key: agentKey })).status).toBe(200);

    const stale = await t.call('products.update', { slug, patch: { priceDkk: 129900, stock: 9 } },
      { ...master, headers: { 'if-match': owner.etag } });
    expectProblem(stale, 412, 'precondition_failed');
    expect(stale.body).toMatchObject({ code: 'precondition_failed', status: 412, current: { slug, priceDkk: 99900, stock: 5 } });
    expect(stale.body.resolution).toMatch(/products\.get|\.get tool/);
    expect(stale.headers.etag).toBeUndefined();

    const now = await read(slug);
    expect(now.record).toMatchObject({ priceDkk: 99900, stock: 5 });
    const audits = await t.database.db.select().from(auditEntries)
      .where(and(eq(auditEntries.targetType, 'product'), eq(auditEntries.targetId, id)));
    expect(audits).toHaveLength(2); // create and the agent's cut; the refused write left none
  });

  it('refuses a weak tag and accepts a list naming the current one', async () => {
    const { slug } = await createProduct(t);
    const { etag } = await read(slug);
    const weak = await t.call('products.update', { slug, patch: { stock: 1 } }, { ...master, headers: { 'if-match': `W/${etag}` } });
    expect(weak.status).toBe(412);
    const listed = await t.call('products.update', { slug, patch: { stock: 2 } }, { ...master, headers: { 'if-match': `"old", ${etag}` } });
    expect(listed.status).toBe(200);
  });

  it('attach_image is conditional too', async () => {
    const { slug } = await createProduct(t);
    const { etag } = await read(slug);
    await t.call('products.update', { slug, patch: { stock: 1 } }, master);
    const stale = await t.call('products.attach_image', { slug, imageUrl: 'https://img.test/side.jpg', alt: 'Fra siden' },
      { ...master, headers: { 'if-match': etag } });
    expectProblem(stale, 412, 'precondition_failed');
    expect((await read(slug)).record.images).toEqual([]);
  });

  it('a conditional write under an Idempotency-Key replays its first answer; a 412 is not stored', async () => {
    const { slug } = await createProduct(t, { stock: 5 });
    const { etag } = await read(slug);
    const options = { ...master, headers: { 'if-match': etag, 'idempotency-key': `etag-${slug}` } };
    expect((await t.call('products.update', { slug, patch: { stock: 6 } }, options)).status).toBe(200);
    const replay = await t.call('products.update', { slug, patch: { stock: 6 } }, options);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');

    const fresh = await read(slug);
    const refusedOptions = { ...master, headers: { 'if-match': etag, 'idempotency-key': `etag2-${slug}` } };
    expect((await t.call('products.update', { slug, patch: { stock: 8 } }, refusedOptions)).status).toBe(412);
    const retried = await t.call('products.update', { slug, patch: { stock: 8 } },
      { ...master, headers: { 'if-match': fresh.etag, 'idempotency-key': `etag2-${slug}` } });
    expect(retried.status).toBe(200);
    expect((await read(slug)).record.stock).toBe(8);
  });

  it('writes as before without If-Match', async () => {
    const { slug } = await createProduct(t, { stock: 5 });
    const updated = await t.call('products.update', { slug, patch: { stock: 3 } }, master);
    expect(updated.status).toBe(200);
    expect((await read(slug)).record.stock).toBe(3);
  });
});

describe('products: the version over MCP _meta', () => {
  it('gives butik/etag on get and honours butik/ifMatch on update', async () => {
    const { slug } = await createProduct(t, { priceDkk: 129900, stock: 5 });
    const { etag } = await read(slug);
    await withClient(async (client) => {
      const got = await client.callTool({ name: 'products.get', arguments: { slug } });
      expect(got._meta?.['butik/etag']).toBe(etag);
      expect(got.structuredContent).not.toHaveProperty('etag');

      await t.call('products.update', { slug, patch: { priceDkk: 99900 } }, master);
      const stale = await client.callTool({ name: 'products.update', arguments: { slug, patch: { stock: 1 } }, _meta: { 'butik/ifMatch': etag } });
      expect(stale.isError).toBe(true);
      const problem = JSON.parse((stale.content as { text: string }[])[0]!.text);
      expect(problem).toMatchObject({ code: 'precondition_failed', current: { priceDkk: 99900, stock: 5 } });
      expect(problem.resolution).toMatch(/butik\/ifMatch/);

      const fresh = await client.callTool({ name: 'products.get', arguments: { slug } });
      const ok = await client.callTool({ name: 'products.update', arguments: { slug, patch: { stock: 1 } }, _meta: { 'butik/ifMatch': fresh._meta?.['butik/etag'] } });
      expect(ok.isError).toBeFalsy();
    });
    expect((await read(slug)).record).toMatchObject({ priceDkk: 99900, stock: 1 });
  });
});
