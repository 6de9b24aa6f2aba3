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

  it('shows a creation in Activity as one line that names it, with every field behind a details element', async () => {
    await t.call('categories.upsert', { slug: 'reading-glasses', name: 'Reading glasses' }, master);
    const activity = await page(t.app, cookie, '/admin/activity?tool=categories.upsert');
    expect(activity.response.body).toContain('<p class="summary">Created category — name: Reading glasses, slug: reading-glasses</p>');
    expect(activity.response.body).toMatch(/<details><summary>All \d+ fields<\/summary><table class="diff stack">/);
  });
});
