import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema.ts';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCart, createDiscount } from '../helpers/commerce.ts';
import { ucp } from './helpers.ts';

/** A person's browser: the CSRF cookie it was given, sent back with every request. */
type Visitor = { cookie: string };

async function open(t: TestApp, path: string, visitor: Visitor) {
  const response = await t.app.inject({ method: 'GET', url: path, headers: visitor.cookie ? { cookie: visitor.cookie } : {} });
  const set = response.cookies.find((cookie) => cookie.name === 'butik_csrf');
  if (set) visitor.cookie = `butik_csrf=${set.value}`;
  const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1] ?? '';
  return { response, token, body: response.body };
}

async function post(t: TestApp, path: string, visitor: Visitor, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(visitor.cookie ? { cookie: visitor.cookie } : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
}

const ADDRESS = { email: 'karen@example.dk', name: 'Karen Blixen', phone: '+4512345678', street: 'Rungstedvej 111', zip: '2960', city: 'Rungsted Kyst', country: 'DK' };

/** An agent's session over UCP REST: lines only, so a person must give everything else. */
async function agentSession(t: TestApp, headers: Record<string, string> = {}) {
  const created = await ucp(t, 'POST', '/checkout-sessions', { line_items: [{ item: { id: 'aviator-classic' }, quantity: 2 }], currency: 'DKK' }, headers);
  expect(created.status).toBe(201);
  return created.body;
}

const optionIn = (body: string) => /name="option" value="([^"]+)"/.exec(body)?.[1] ?? '';

/** Whether the order is counted as an agent's, and which. */
async function origin(t: TestApp, orderId: string) {
  const [row] = await t.database.db.select({ ai: orders.isAiGenerated, source: orders.aiAgentSource }).from(orders).where(eq(orders.id, orderId));
  return row;
}

describe('the buyer page of a UCP checkout session (test mode, open)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { BUTIK_UCP_MODE: 'test' } });
    await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
  });
  afterAll(async () => { await t?.close(); });

  it('names the page in continue_url, and a person finishes the agent\'s session there into an order UCP shows', async () => {
    const session = await agentSession(t);
    expect(session.continue_url).toBe(`${BASE_URL}/checkout/${session.id}`);
    const visitor = { cookie: '' };
    const page = await open(t, `/checkout/${session.id}`, visitor);
    expect(page.response.statusCode).toBe(200);
    expect(page.response.headers['cache-control']).toBe('no-store');
    expect(page.response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.response.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.response.headers['content-security-policy']).not.toMatch(/script-src|unsafe-inline/);
    expect(page.response.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain('<html lang="da"');
    expect(page.body).toContain('<h1>Kassen</h1>');
    expect(page.body).toMatch(/<td>Aviator Classic<\/td><td class="number">2<\/td><td class="number">2\.598,00\s?kr\.<\/td>/);
    expect(page.body).toContain('<label for="felt-card">Kortnummer</label>');
    expect(visitor.cookie).toMatch(/^butik_csrf=/);
    expect(page.token).not.toBe('');

    const updated = await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, action: 'update' });
    expect(updated.statusCode).toBe(303);
    expect(updated.headers.location).toBe(`/checkout/${session.id}`);
    const withOptions = await open(t, `/checkout/${session.id}`, visitor);
    expect(withOptions.body).toContain('<legend>Leveringsmåde</legend>');
    expect(withOptions.body).toContain('value="karen@example.dk"');
    expect(withOptions.body).toContain('value="Rungstedvej 111"');
    const option = optionIn(withOptions.body);
    expect(option).not.toBe('');

    const paid = await post(t, `/checkout/${session.id}`, visitor, { _csrf: withOptions.token, ...ADDRESS, option, card: '4242 4242 4242 4242', action: 'pay' });
    expect(paid.statusCode, paid.body).toBe(303);
    const confirmation = await open(t, `/checkout/${session.id}`, visitor);
    expect(confirmation.response.statusCode).toBe(200);
    expect(confirmation.body).toContain('<h1>Tak for din bestilling</h1>');
    const orderId = /class="order-number">([^<]+)</.exec(confirmation.body)?.[1] ?? '';
    expect(confirmation.body).toMatch(/I alt inkl\. moms<\/th><td class="number">2\.598,00\s?kr\.</);

    const session2 = await ucp(t, 'GET', `/checkout-sessions/${session.id}`);
    expect(session2.body).toMatchObject({ status: 'completed', order: { id: orderId }, buyer: { email: 'karen@example.dk', full_name: 'Karen Blixen' } });
    expect(session2.body.continue_url).toBeUndefined();
    const order = await ucp(t, 'GET', `/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({ id: orderId, checkout_id: session.id });
    expect(order.body.line_items[0]).toMatchObject({ item: { id: 'aviator-classic' }, quantity: { total: 2 } });
    expect(await origin(t, orderId)).toEqual({ ai: true, source: expect.stringContaining('platform') });

    const again = await post(t, `/checkout/${session.id}`, visitor, { _csrf: confirmation.token || withOptions.token, ...ADDRESS, option, card: '4242424242424242', action: 'pay' });
    expect(again.statusCode).toBe(303);
  });

  it('refuses a post without a CSRF token or without the cookie, and changes nothing', async () => {
    const session = await agentSession(t);
    const visitor = { cookie: '' };
    const page = await open(t, `/checkout/${session.id}`, visitor);
    const tokenless = await post(t, `/checkout/${session.id}`, visitor, { ...ADDRESS, action: 'update' });
    expect(tokenless.statusCode).toBe(403);
    expect(tokenless.body).toContain('Formularen er udløbet');
    const cookieless = await post(t, `/checkout/${session.id}`, { cookie: '' }, { _csrf: page.token, ...ADDRESS, action: 'update' });
    expect(cookieless.statusCode).toBe(403);
    const buy = await post(t, '/checkout', { cookie: '' }, { product: 'aviator-classic', quantity: '1' });
    expect(buy.statusCode).toBe(403);
    const unchanged = await ucp(t, 'GET', `/checkout-sessions/${session.id}`);
    expect(unchanged.body.buyer).toBeUndefined();
  });

  it('shows what is wrong beside the field and keeps what the person typed: a bad e-mail, a declined card, a missing option', async () => {
    const session = await agentSession(t);
    const visitor = { cookie: '' };
    const page = await open(t, `/checkout/${session.id}`, visitor);

    const badEmail = await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, email: 'karen-at-example', action: 'pay', card: '4242424242424242' });
    expect(badEmail.statusCode).toBe(422);
    expect(badEmail.body).toContain('value="karen-at-example"');
    expect(badEmail.body).toMatch(/aria-describedby="felt-email-problem" aria-invalid="true">\s*<p class="problem" id="felt-email-problem"><strong>E-mailadressen ser forkert ud\.<\/strong> Skriv en adresse som navn@eksempel\.dk\.<\/p>/);
    expect(badEmail.body).not.toContain('4242424242424242');

    const noOption = await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, card: '4242424242424242', action: 'pay' });
    expect(noOption.statusCode).toBe(422);
    expect(noOption.body).toContain('id="felt-option-problem"><strong>Vælg hvordan varerne skal sendes.</strong>');
    const option = optionIn(noOption.body);

    const declined = await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, option, card: '4242424242424241', action: 'pay' });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('id="felt-card-problem"><strong>Betalingen blev afvist.</strong> Tjek kortnummeret, eller betal med et andet kort.');
    expect(declined.body).toContain('value="Karen Blixen"');
    expect(declined.body).toContain(`value="${option}" checked`);
    const open2 = await ucp(t, 'GET', `/checkout-sessions/${session.id}`);
    expect(open2.body.status).toBe('ready_for_complete');

    const badCode = await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, option, codes: 'NOPE', card: '4242424242424242', action: 'pay' });
    expect(badCode.statusCode).toBe(422);
    expect(badCode.body).toContain('id="felt-codes-problem"><strong>Rabatkoden findes ikke.</strong>');
    expect(badCode.body).toContain('value="NOPE"');

    const discounted = await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, option, codes: 'SOMMER25', action: 'update' });
    expect(discounted.statusCode).toBe(303);
    const priced = await open(t, `/checkout/${session.id}`, visitor);
    expect(priced.body).toMatch(/Rabat<\/th><td class="number">−649,50\s?kr\.</);
  });

  it('says so when a session is unknown, canceled, or its stock is gone by payment', async () => {
    const visitor = { cookie: '' };
    expect((await open(t, '/checkout/not-a-session', visitor)).response.statusCode).toBe(404);
    const unknown = await open(t, '/checkout/7d1f9a52-2f7e-4a0e-9d51-3a7f1d2b8c00', visitor);
    expect(unknown.response.statusCode).toBe(404);
    expect(unknown.body).toContain('<h1>Købet findes ikke</h1>');

    const canceled = await agentSession(t);
    await ucp(t, 'POST', `/checkout-sessions/${canceled.id}/cancel`);
    const ended = await open(t, `/checkout/${canceled.id}`, visitor);
    expect(ended.response.statusCode).toBe(410);
    expect(ended.body).toContain('<h1>Købet er afsluttet</h1>');

    const session = await agentSession(t);
    const page = await open(t, `/checkout/${session.id}`, visitor);
    await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, action: 'update' });
    const option = optionIn((await open(t, `/checkout/${session.id}`, visitor)).body);
    await t.database.db.execute(`update products set stock = 1 where slug = 'aviator-classic'`);
    try {
      const gone = await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, option, card: '4242424242424242', action: 'pay' });
      expect(gone.statusCode).toBe(422);
      expect(gone.body).toContain('<p class="problem" id="varer-problem"><strong>En af varerne er ikke på lager i det antal.</strong>');
    } finally {
      await t.database.db.execute(`update products set stock = 50 where slug = 'aviator-classic'`);
    }
  });

  it('puts a Buy button on a product page that starts a session and leads to its checkout page', async () => {
    const visitor = { cookie: '' };
    const product = await open(t, '/products/aviator-classic', visitor);
    expect(product.response.statusCode).toBe(200);
    expect(product.response.headers['cache-control']).toBe('no-store');
    expect(product.response.headers['content-security-policy']).toContain("form-action 'self'");
    expect(product.body).toContain('<form method="post" action="/checkout" class="buy-form">');
    expect(product.body).toContain('<label for="antal">Antal</label>');

    const bought = await post(t, '/checkout', visitor, { _csrf: product.token, product: 'aviator-classic', quantity: '3' });
    expect(bought.statusCode).toBe(303);
    const id = /^\/checkout\/([0-9a-f-]{36})$/.exec(String(bought.headers.location))?.[1];
    expect(id).toBeDefined();
    const session = await ucp(t, 'GET', `/checkout-sessions/${id}`);
    expect(session.body.line_items).toMatchObject([{ item: { id: 'aviator-classic' }, quantity: 3 }]);
    const page = await open(t, `/checkout/${id}`, visitor);
    expect(page.body).toMatch(/<td>Aviator Classic<\/td><td class="number">3<\/td>/);
    await post(t, `/checkout/${id}`, visitor, { _csrf: page.token, ...ADDRESS, action: 'update' });
    const priced = await open(t, `/checkout/${id}`, visitor);
    const paid = await post(t, `/checkout/${id}`, visitor, { _csrf: priced.token, ...ADDRESS, option: optionIn(priced.body), card: '4242424242424242', action: 'pay' });
    expect(paid.statusCode).toBe(303);
    const orderId = /class="order-number">([^<]+)</.exec((await open(t, `/checkout/${id}`, visitor)).body)?.[1] ?? '';
    // Bought by a person in the shop: no agent placed it.
    expect(await origin(t, orderId)).toEqual({ ai: false, source: null });

    const tooMany = await post(t, '/checkout', visitor, { _csrf: product.token, product: 'aviator-classic', quantity: '100000' });
    expect(tooMany.statusCode).toBe(422);
    const outOfStock = await post(t, '/checkout', visitor, { _csrf: product.token, product: 'aviator-classic', quantity: '999' });
    expect(outOfStock.statusCode).toBe(400);
    expect(outOfStock.body).toContain('Der er ikke nok på lager');
  });

  it('starts a session from an agent\'s cart when a person follows the cart view\'s link, and refuses a cart it cannot sell', async () => {
    const { code } = await createDiscount(t);
    const cart = await createCart(t, { items: [{ slug: 'aviator-classic', quantity: 2 }], discountCode: code });
    const followed = await t.app.inject({ method: 'GET', url: `/checkout/cart/${cart.cartId}` });
    expect(followed.statusCode).toBe(303);
    const id = /^\/checkout\/([0-9a-f-]{36})$/.exec(String(followed.headers.location))?.[1];
    expect(id).toBeDefined();
    const session = await ucp(t, 'GET', `/checkout-sessions/${id}`);
    expect(session.body.line_items).toMatchObject([{ item: { id: 'aviator-classic' }, quantity: 2 }]);
    expect(session.body.discounts.codes).toEqual([code]);
    expect((await open(t, `/checkout/${id}`, { cookie: '' })).body).toMatch(/<td>Aviator Classic<\/td><td class="number">2<\/td>/);

    const empty = await createCart(t);
    for (const cartId of [empty.cartId, '7d1f9a52-2f7e-4a0e-9d51-3a7f1d2b8c00', 'not-a-cart']) {
      const refused = await t.app.inject({ method: 'GET', url: `/checkout/cart/${cartId}` });
      expect(refused.statusCode, cartId).toBe(404);
      expect(refused.body).toContain('Kurven findes ikke, er tom eller er allerede betalt.');
    }
  });
});

describe('the buyer page\'s limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { BUTIK_UCP_MODE: 'test', BUTIK_RATE_LIMITS: 'anon:100000,preauth:100000,key:100000,ucp:3' } });
    await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
  });
  afterAll(async () => { await t?.close(); });

  // Three requests a minute: the agent's create, the page, the oversized post; the fourth is refused.
  it('caps a form body at 16 KiB and counts the pages against the ucp rate limit', async () => {
    const session = await agentSession(t);
    const visitor = { cookie: '' };
    const page = await open(t, `/checkout/${session.id}`, visitor);
    const huge = await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, name: 'x'.repeat(20_000) });
    expect(huge.statusCode).toBe(413);
    expect(huge.body).toContain('Formularen var for stor.');
    const limited = await open(t, `/checkout/${session.id}`, visitor);
    expect(limited.response.statusCode).toBe(429);
    expect(limited.response.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.body).toContain('<h1>For mange forsøg</h1>');
  });
});

describe('an expired session', () => {
  let t: TestApp;
  let now = new Date('2026-06-01T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp({ env: { BUTIK_UCP_MODE: 'test' }, clock: () => now });
    await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
  });
  afterAll(async () => { await t?.close(); });

  it('shows that the purchase ended, and a form posted to it afterwards leads there too', async () => {
    const session = await agentSession(t);
    const visitor = { cookie: '' };
    const page = await open(t, `/checkout/${session.id}`, visitor);
    expect(page.response.statusCode).toBe(200);
    now = new Date(now.getTime() + 6 * 60 * 60 * 1000 + 1000);
    const late = await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, action: 'update' });
    expect(late.statusCode).toBe(303);
    const ended = await open(t, `/checkout/${session.id}`, visitor);
    expect(ended.response.statusCode).toBe(410);
    expect(ended.body).toContain('Købet blev annulleret eller udløb, før det blev betalt. Der er ikke trukket penge.');
    const canceled = await ucp(t, 'GET', `/checkout-sessions/${session.id}`);
    expect(canceled.body.status).toBe('canceled');
    expect(canceled.body.continue_url).toBeUndefined();
  });
});

describe('the buyer page in key mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { BUTIK_UCP_MODE: 'test', BUTIK_UCP_AUTH: 'key' } });
    await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
  });
  afterAll(async () => { await t?.close(); });

  it('lets the person holding continue_url finish the key\'s session, and the order stays the key\'s', async () => {
    const key = await t.keyWith('ucp:checkout');
    const other = await t.keyWith('ucp:checkout');
    const session = await agentSession(t, { 'x-api-key': key });
    expect(session.continue_url).toBe(`${BASE_URL}/checkout/${session.id}`);
    const visitor = { cookie: '' };
    const page = await open(t, `/checkout/${session.id}`, visitor);
    expect(page.response.statusCode).toBe(200);
    await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, action: 'update' });
    const option = optionIn((await open(t, `/checkout/${session.id}`, visitor)).body);
    const paid = await post(t, `/checkout/${session.id}`, visitor, { _csrf: page.token, ...ADDRESS, option, card: '4242424242424242', action: 'pay' });
    expect(paid.statusCode).toBe(303);
    const completed = await ucp(t, 'GET', `/checkout-sessions/${session.id}`, undefined, { 'x-api-key': key });
    expect(completed.body.status).toBe('completed');
    expect((await ucp(t, 'GET', `/orders/${completed.body.order.id}`, undefined, { 'x-api-key': key })).status).toBe(200);
    expect((await ucp(t, 'GET', `/orders/${completed.body.order.id}`, undefined, { 'x-api-key': other })).status).toBe(404);
  });
});

describe('with UCP off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
  });
  afterAll(async () => { await t?.close(); });

  it('has no Buy button, keeps product pages cacheable, and routes no checkout page', async () => {
    const product = await t.app.inject({ method: 'GET', url: '/products/aviator-classic' });
    expect(product.statusCode).toBe(200);
    expect(product.body).not.toContain('buy-form');
    expect(product.headers['cache-control']).toBe('public, max-age=60');
    expect(product.headers['set-cookie']).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/checkout/7d1f9a52-2f7e-4a0e-9d51-3a7f1d2b8c00' })).statusCode).toBe(404);
  });
});
