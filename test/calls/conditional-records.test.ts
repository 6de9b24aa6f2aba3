import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createDiscount, placeOrder } from '../helpers/commerce.ts';
import { master, uniqueSlug } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** One record kind: how to make one, read it, change it by someone else, and what the caller's own write is. */
type Kind = {
  name: string;
  make(): Promise<Record<string, unknown>>;
  read: string;
  /** Someone else's write, which the caller's old ETag does not know about. */
  meanwhile: { tool: string; body: Record<string, unknown> };
  mine: { tool: string; body: Record<string, unknown> };
  /** What the record shows after `meanwhile`, and still after the refused write. */
  kept: Record<string, unknown>;
};

async function kinds(): Promise<Kind[]> {
  const serviceSlug = uniqueSlug('service');
  expect((await t.call('services.create', { slug: serviceSlug, title: 'Synsprøve', body: 'Lang tekst.' }, master)).status).toBe(200);
  const discount = await createDiscount(t);
  const { orderId } = await placeOrder(t);
  const pageSlug = uniqueSlug('page');
  expect((await t.call('pages.upsert', { slug: pageSlug, title: 'Om os', body: 'Vi laver briller.' }, master)).status).toBe(200);
  const layout = { version: 1, sections: [{ type: 'text', heading: 'Værkstedet', body: 'Vi tilpasser og reparerer alle stel.' }] };
  return [
    {
      name: 'pages', make: async () => ({ slug: pageSlug }), read: 'pages.get_layout',
      meanwhile: { tool: 'pages.set_layout', body: { slug: pageSlug, layout } },
      mine: { tool: 'pages.set_layout', body: { slug: pageSlug, layout: null } },
      kept: layout,
    },
    {
      name: 'services', make: async () => ({ slug: serviceSlug }), read: 'services.get',
      meanwhile: { tool: 'services.update', body: { slug: serviceSlug, patch: { priceString: 'Fra 175 kr.' } } },
      mine: { tool: 'services.update', body: { slug: serviceSlug, patch: { priceString: 'Gratis' } } },
      kept: { priceString: 'Fra 175 kr.' },
    },
    {
      name: 'discounts', make: async () => ({ code: discount.code }), read: 'discounts.get',
      meanwhile: { tool: 'discounts.toggle', body: { code: discount.code, active: false } },
      mine: { tool: 'discounts.toggle', body: { code: discount.code, active: true } },
      kept: { active: false },
    },
    {
      name: 'orders', make: async () => ({ orderId }), read: 'orders.get',
      meanwhile: { tool: 'orders.update_status', body: { orderId, status: 'cancelled' } },
      mine: { tool: 'orders.update_status', body: { orderId, status: 'paid' } },
      kept: { status: 'cancelled' },
    },
  ];
}

describe('ETag and If-Match on services, discounts and orders', () => {
  it('each read answers an ETag; a stale If-Match writes nothing and answers 412 with the current record', async () => {
    for (const kind of await kinds()) {
      const ref = await kind.make();
      const first = await t.call(kind.read, ref, master);
      expect(first.status, kind.name).toBe(200);
      const etag = String(first.headers.etag);
      expect(etag, kind.name).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect((await t.call(kind.read, ref, master)).headers.etag, kind.name).toBe(etag);

      expect((await t.call(kind.meanwhile.tool, kind.meanwhile.body, master)).status, kind.name).toBe(200);
      const now = await t.call(kind.read, ref, master);
      expect(now.headers.etag, kind.name).not.toBe(etag);

      const stale = await t.call(kind.mine.tool, kind.mine.body, { ...master, headers: { 'if-match': etag } });
      expect(stale.status, kind.name).toBe(412);
      expect(stale.body, kind.name).toMatchObject({ code: 'precondition_failed', current: kind.kept });
      expect(stale.body.current, kind.name).toEqual(now.body.result);
      const after = await t.call(kind.read, ref, master);
      expect(after.body.result, kind.name).toEqual(now.body.result);
      expect(after.headers.etag, kind.name).toBe(now.headers.etag);
    }
  });

  it('a current If-Match writes and answers the new ETag', async () => {
    const slug = uniqueSlug('service');
    await t.call('services.create', { slug, title: 'Synsprøve', body: 'Lang tekst.' }, master);
    const { headers } = await t.call('services.get', { slug }, master);
    const updated = await t.call('services.update', { slug, patch: { priceString: 'Gratis' } }, { ...master, headers: { 'if-match': String(headers.etag) } });
    expect(updated.status).toBe(200);
    const after = await t.call('services.get', { slug }, master);
    expect(after.body.result.priceString).toBe('Gratis');
    expect(updated.headers.etag).toBe(after.headers.etag);

    const discount = await createDiscount(t);
    const read = await t.call('discounts.get', { code: discount.code }, master);
    const toggled = await t.call('discounts.toggle', { code: discount.code, active: false }, { ...master, headers: { 'if-match': String(read.headers.etag) } });
    expect(toggled.body.result).toEqual({ code: discount.code, active: false });

    const { orderId } = await placeOrder(t);
    const order = await t.call('orders.get', { orderId }, master);
    const paid = await t.call('orders.update_status', { orderId, status: 'paid' }, { ...master, headers: { 'if-match': String(order.headers.etag) } });
    expect(paid.status).toBe(200);
    expect((await t.call('orders.get', { orderId }, master)).body.result.status).toBe('paid');
  });

  it('a sale changes the product\'s ETag, so a stock figure read before it cannot overwrite it', async () => {
    const { product } = await placeOrder(t, { quantity: 1 });
    const before = await t.call('products.get', { slug: product.slug });
    await placeOrder(t, { product, quantity: 2 });
    const stale = await t.call('products.update', { slug: product.slug, patch: { stock: before.body.result.stock + 5 } },
      { ...master, headers: { 'if-match': String(before.headers.etag) } });
    expect(stale.status).toBe(412);
    expect(stale.body.current.stock).toBe(before.body.result.stock - 2);
  });
});

describe('the OpenAPI document names ETag, If-Match and 412', () => {
  it('on the reads and updates that have a version, and not elsewhere', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body);
    const op = (name: string) => doc.paths[`/api/v1/tools/${name}`].post;
    const ifMatch = { $ref: '#/components/parameters/IfMatch' };
    for (const name of ['products.update', 'products.attach_image', 'services.update', 'discounts.toggle', 'orders.update_status', 'pages.set_layout']) {
      expect(op(name).parameters, name).toContainEqual(ifMatch);
      expect(op(name).responses['412'], name).toEqual({ $ref: '#/components/responses/PreconditionFailed' });
    }
    for (const name of ['products.get', 'services.get', 'discounts.get', 'orders.get', 'pages.get_layout']) {
      expect(op(name).responses['200'].headers, name).toHaveProperty('ETag');
      expect(op(name).parameters, name).not.toContainEqual(ifMatch);
    }
    expect(op('products.create').parameters).not.toContainEqual(ifMatch);
    expect(op('products.create').responses).not.toHaveProperty('412');
    expect(doc.components.parameters.IfMatch).toMatchObject({ name: 'If-Match', in: 'header', required: false });
  });
});
