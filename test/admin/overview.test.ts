import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ucpWebhookOutbox } from '../../src/db/schema.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { placeOrder } from '../helpers/commerce.ts';
import { master } from '../helpers/fixtures.ts';
import { page, staffCookie } from './helpers.ts';

let t: TestApp;
let cookie = '';
beforeAll(async () => {
  t = await createTestApp({ env: { BUTIK_UCP_MODE: 'test' } });
  cookie = await staffCookie(t, 'vera@shop.dk', 'viewer');
});
afterAll(async () => t.close());

describe('the overview and activity pages', () => {
  it('lists failed UCP webhooks on the overview while UCP is on, with the order, the platform and the last error', async () => {
    const empty = await page(t.app, cookie, '/admin/overview');
    expect(empty.response.body).toMatch(/<h2>Failed UCP webhooks<\/h2><p>Nothing here yet.<\/p>/);
    const { orderId } = await placeOrder(t);
    const now = new Date();
    await t.database.db.insert(ucpWebhookOutbox).values({
      orderId, eventType: 'order_placed', url: 'https://agent.example/webhooks', body: '{}', status: 'failed',
      attempts: 12, lastError: 'status 503', giveUpAt: now,
    });
    const overview = await page(t.app, cookie, '/admin/overview');
    expect(overview.response.body).toContain(`<a href="/admin/orders/${orderId}">Order ${orderId.slice(0, 8)}</a> · https://agent.example/webhooks · status 503 (12)`);
  });

  it('lists the visible products at 5 units or fewer under Low stock, fewest first, and follows stock as it moves', async () => {
    await t.call('categories.upsert', { slug: 'frames', name: 'Frames' }, master);
    const create = (slug: string, stock: number) => t.call('products.create', {
      slug, name: slug.replace('-', ' '), description: 'Et par briller.', priceDkk: 10000, stock, categorySlug: 'frames',
    }, master);
    for (const [slug, stock] of [['low-three', 3], ['low-none', 0], ['plenty-ten', 10], ['low-gone', 1]] as const) {
      const made = await create(slug, stock);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
    }
    expect((await t.call('products.delete', { slug: 'low-gone', confirm: true }, master)).status).toBe(200);
    const panel = async () => {
      const body = (await page(t.app, cookie, '/admin/overview')).response.body;
      const start = body.indexOf('<h2>Low stock</h2>');
      return body.slice(start, body.indexOf('</section>', start));
    };
    const before = await panel();
    expect(before.indexOf('low-none')).toBeGreaterThan(-1);
    expect(before.indexOf('low-none')).toBeLessThan(before.indexOf('low-three'));
    expect(before).not.toContain('plenty-ten');
    expect(before).not.toContain('low-gone');

    expect((await t.call('products.adjust_stock', { slug: 'plenty-ten', by: -5 }, master)).status).toBe(200);
    expect((await t.call('products.adjust_stock', { slug: 'low-three', by: 3 }, master)).status).toBe(200);
    const after = await panel();
    expect(after).toContain('plenty-ten');
    expect(after).not.toContain('low-three');
  });

  it('names what an entry changed as a person knows it, with field labels and statuses in words', async () => {
    await t.call('categories.upsert', { slug: 'readers', name: 'Readers' }, master);
    expect((await t.call('products.create', {
      slug: 'round-reader', name: 'Round Reader', description: 'Runde læsebriller.', priceDkk: 49900, stock: 4, categorySlug: 'readers',
    }, master)).status).toBe(200);
    expect((await t.call('products.update', { slug: 'round-reader', patch: { priceDkk: 39900, frameColor: 'sort' } }, master)).status).toBe(200);
    const activity = await page(t.app, cookie, `/admin/activity?target=round-reader`);
    const body = activity.response.body;
    expect(body).toContain('>Product Round Reader (round-reader)</h2>');
    expect(body).toContain('<code>products.update</code>');
    expect(body).toMatch(/<td data-label="Field" title="priceDkk">Price<\/td><td data-label="Before"><data value="49900">[^<]+499.00<\/data>/);
    expect(body).toContain('title="frameColor">Frame colour</td><td data-label="Before">—</td><td data-label="After">sort</td>');
    expect(body).not.toMatch(/<h2[^>]*>products\.update · product /);

    const { orderId } = await placeOrder(t);
    expect((await t.call('orders.update_status', { orderId, status: 'flagged_review' }, master)).status).toBe(200);
    const moved = (await page(t.app, cookie, '/admin/activity?tool=orders.update_status')).response.body;
    expect(moved).toContain(`>Order ${orderId.slice(0, 8)} · `);
    expect(moved).toContain('title="status">Status</td><td data-label="Before">Awaiting payment</td><td data-label="After">Flagged for review</td>');
    expect(moved).toMatch(/<p class="why-not">An order(&#39;|')s change cannot be undone: stock, discount uses and payments moved with it./);
    expect(moved).not.toContain(`changed order ${orderId}`);
  });

  it('names agents and what they changed under Last agent actions, and leaves the owner\'s own master key out', async () => {
    const agent = await t.keyWith('categories:write');
    expect((await t.call('categories.upsert', { slug: 'agent-picks', name: 'Agent picks' }, { key: agent })).status).toBe(200);
    expect((await t.call('categories.upsert', { slug: 'owner-picks', name: 'Owner picks' }, master)).status).toBe(200);
    const body = (await page(t.app, cookie, '/admin/overview')).response.body;
    const panel = body.slice(body.indexOf('<h2>Last agent actions</h2>'));
    expect(panel).toMatch(/<strong>test categories:write<\/strong><\/a> · <a href="\/admin\/activity\?target=[0-9a-f-]+">Category Agent picks \(agent-picks\)<\/a> · <code>categories.upsert<\/code>/);
    expect(panel).not.toContain('Owner picks');
    expect(panel).not.toContain('<strong>master</strong>');
  });

  it('shows a creation in Activity as one line that names it, with every field behind a details element', async () => {
    await t.call('categories.upsert', { slug: 'reading-glasses', name: 'Reading glasses' }, master);
    const activity = await page(t.app, cookie, '/admin/activity?tool=categories.upsert');
    expect(activity.response.body).toContain('<p class="summary">Created: Category Reading glasses (reading-glasses)</p>');
    expect(activity.response.body).toMatch(/<details><summary>All \d+ fields<\/summary><table class="diff stack">/);
  });
});
