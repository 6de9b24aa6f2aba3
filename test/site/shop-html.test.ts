import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master } from '../helpers/fixtures.ts';
import { ESCAPED_PAYLOAD, PAYLOAD, expectAccessibleDocument, expectInert, section } from './html-checks.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
});
afterAll(async () => { await t?.close(); });

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

const LD = /<script type="application\/ld\+json">([^<]*)<\/script>/;

/** The page without its JSON-LD block, which is data (not script) and checked on its own. */
function withoutJsonLd(html: string): string {
  return html.replace(LD, '');
}

describe('GET / (the front page)', () => {
  it('shows the shop, its featured products with images and prices, its categories and the way to /docs', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    const main = section(response.body, 'main');
    expect(main).toContain('<h1>Butik</h1>');
    for (const name of ['Aviator Classic', 'Wayfarer Sort', 'Holbrook Polariseret', 'Marina Round Titanium']) expect(main).toContain(name);
    expect(main).toContain('<span class="price">1.299,00\u00a0kr.</span>');
    expect(main).toContain(`<img src="${BASE_URL}/images/demo/aviator-classic.svg" alt="Aviator Classic fra Ray-Ban"`);
    expect(main).toContain('<a href="/categories/solbriller">Solbriller</a> <span class="muted">(13)</span>');
    expect(main).toContain('<a href="/docs">API-dokumentationen</a>');
    const header = section(response.body, 'header');
    expect(header).toContain('<a href="/products">Alle varer</a>');
    expect(header).toContain('<a href="/services">Ydelser</a>');
    expect(header).toContain('<a href="/info/om-os">');
    expectAccessibleDocument(response.body);
    expectInert(response.body);
  });

  it('answers 304 to a client that holds the same version', async () => {
    const first = await get('/');
    const etag = String(first.headers.etag);
    expect((await get('/', { 'if-none-match': etag })).statusCode).toBe(304);
  });
});

describe('GET /products', () => {
  it('lists every visible product, featured first, with a pager past 24', async () => {
    const response = await get('/products');
    expect(response.statusCode).toBe(200);
    const main = section(response.body, 'main');
    expect(main).toContain('<p class="lead">30 varer i alt.</p>');
    expect([...main.matchAll(/<li class="product-card">/g)]).toHaveLength(24);
    expect(main).toContain('<span>Side 1 af 2</span>');
    expect(main).toContain('<a href="/products?page=2">Næste →</a>');
    const second = section((await get('/products?page=2')).body, 'main');
    expect([...second.matchAll(/<li class="product-card">/g)]).toHaveLength(6);
    expect(second).toContain('<a href="/products">← Forrige</a>');
    expectAccessibleDocument(response.body);
  });

  it('marks a product out of stock', async () => {
    const main = section((await get('/products?page=2')).body + (await get('/products')).body, 'main');
    expect(main).toMatch(/Havbris Oversize[\s\S]*?<span class="sold-out">Udsolgt<\/span>/);
  });

  it.each(['/products?page=0', '/products?page=abc', '/products?page=3'])('shows the 404 page for %s', async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<h1>Siden findes ikke</h1>');
  });
});

describe('GET /products/<slug>', () => {
  it('shows the product with price, stock, facts and schema.org Product data', async () => {
    const response = await get('/products/aviator-classic');
    expect(response.statusCode).toBe(200);
    const main = section(response.body, 'main');
    expect(main).toContain('<h1>Aviator Classic</h1>');
    expect(main).toContain('<p class="price product-price">1.299,00\u00a0kr. <span class="muted">inkl. moms</span></p>');
    expect(main).toContain('<p class="stock">På lager (14 stk.)</p>');
    expect(main).toContain('<dt>Mærke</dt><dd>Ray-Ban</dd>');
    expect(main).toContain('<a href="/categories/solbriller">Solbriller</a>');
    const ld = JSON.parse(LD.exec(response.body)?.[1] ?? 'null');
    expect(ld).toMatchObject({
      '@context': 'https://schema.org', '@type': 'Product', name: 'Aviator Classic',
      brand: { '@type': 'Brand', name: 'Ray-Ban' }, url: `${BASE_URL}/products/aviator-classic`,
      image: [`${BASE_URL}/images/demo/aviator-classic.svg`],
      offers: { '@type': 'Offer', priceCurrency: 'DKK', price: '1299.00', availability: 'https://schema.org/InStock' },
    });
    expectAccessibleDocument(response.body);
    expectInert(withoutJsonLd(response.body));
  });

  it('prices in the shop currency once it is changed, with that currency\'s minor unit', async () => {
    await t.call('settings.update', { currency: 'USD' }, master);
    try {
      const usd = await get('/products/aviator-classic');
      expect(section(usd.body, 'main')).toContain('<p class="price product-price">1.299,00\u00a0US$ <span class="muted">inkl. moms</span></p>');
      expect(JSON.parse(LD.exec(usd.body)?.[1] ?? 'null').offers).toMatchObject({ priceCurrency: 'USD', price: '1299.00' });
      await t.call('settings.update', { currency: 'JPY' }, master);
      const yen = await get('/products/aviator-classic');
      expect(section(yen.body, 'main')).toContain('<p class="price product-price">129.900\u00a0JP¥ <span class="muted">inkl. moms</span></p>');
      expect(JSON.parse(LD.exec(yen.body)?.[1] ?? 'null').offers).toMatchObject({ priceCurrency: 'JPY', price: '129900' });
    } finally {
      await t.call('settings.update', { currency: 'DKK' }, master);
    }
  });

  it('escapes hostile product text in the page and in the JSON-LD, which no text can close', async () => {
    const product = await createProduct(t, { name: `${PAYLOAD} </script>`, description: `Beskrivelse ${PAYLOAD}`, brand: PAYLOAD });
    const response = await get(`/products/${product.slug}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(ESCAPED_PAYLOAD);
    expect([...response.body.matchAll(/<script/g)]).toHaveLength(1);
    expect([...response.body.matchAll(/<\/script>/g)]).toHaveLength(1);
    const ld = JSON.parse(LD.exec(response.body)?.[1] ?? 'null');
    expect(ld.name).toBe(`${PAYLOAD} </script>`);
    expectInert(withoutJsonLd(response.body));
  });

  it('shows the 404 page for an unknown or deleted product', async () => {
    const product = await createProduct(t);
    await t.call('products.delete', { slug: product.slug, confirm: true }, master);
    for (const slug of [product.slug, 'findes-ikke']) {
      const response = await get(`/products/${slug}`);
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('<h1>Siden findes ikke</h1>');
    }
  });
});

describe('GET /categories/<slug>', () => {
  it('lists the products of the category only', async () => {
    const response = await get('/categories/laesebriller');
    expect(response.statusCode).toBe(200);
    const main = section(response.body, 'main');
    expect(main).toContain('<h1>Læsebriller</h1>');
    expect([...main.matchAll(/<li class="product-card">/g)]).toHaveLength(4);
    expect(main).toContain('Glow Læsebrille +1,0');
    expect(main).not.toContain('Aviator Classic');
    expectAccessibleDocument(response.body);
  });

  it('shows the 404 page for an unknown category', async () => {
    expect((await get('/categories/findes-ikke')).statusCode).toBe(404);
  });
});
