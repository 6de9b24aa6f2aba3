import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { MISSING, screenshot } from './chromium.ts';
import { appInBrowser } from './in-browser.ts';

const shop = appInBrowser({ baseUrl: 'origin', setUp: (t, origin) => seedDemoStore(t.database.db, { baseUrl: origin }) });

async function open(path: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await shop.newPage(viewport, 'da-DK');
  const errors: string[] = [];
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  const response = await page.goto(`${shop.origin()}${path}`, { waitUntil: 'load' });
  expect(response?.status(), path).toBe(200);
  expect(errors, `console errors on ${path}`).toEqual([]);
  return page;
}

describe.skipIf(MISSING)('the shop in a browser', () => {
  it('shows the front page with featured products, their images and prices', async () => {
    const page = await open('/', { width: 1280, height: 900 });
    try {
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Butik');
      const cards = page.locator('main .product-card');
      expect(await cards.count()).toBeGreaterThanOrEqual(4);
      const image = cards.first().locator('img');
      expect(await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      expect(await page.getByRole('link', { name: 'API-dokumentationen' }).getAttribute('href')).toBe('/docs');
      await screenshot(page, 'front-desktop');
    } finally {
      await page.close();
    }
  });

  it('pages through all products and opens one, whose page carries schema.org Product data', async () => {
    const page = await open('/products', { width: 1280, height: 900 });
    try {
      expect(await page.locator('main .product-card').count()).toBe(24);
      await screenshot(page, 'products-desktop');
      await page.getByRole('link', { name: /Aviator Classic/ }).click();
      await page.waitForURL(`${shop.origin()}/products/aviator-classic`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Aviator Classic');
      const ld = JSON.parse(await page.locator('script[type="application/ld+json"]').textContent() ?? 'null');
      expect(ld).toMatchObject({ '@type': 'Product', offers: { price: '1299.00', priceCurrency: 'DKK' } });
      await screenshot(page, 'product-desktop');
    } finally {
      await page.close();
    }
  });

  it('shows a product and a category on a phone', async () => {
    for (const [path, name] of [['/products/holbrook-polariseret', 'product-phone'], ['/categories/sportsbriller', 'category-phone']] as const) {
      const page = await open(path, { width: 390, height: 844 });
      try {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, path).toBeLessThanOrEqual(0);
        await screenshot(page, name);
      } finally {
        await page.close();
      }
    }
  });
});

describe.skipIf(MISSING)('public pages in a browser', () => {
  it('shows the published offerings in navOrder, without the draft', async () => {
    const page = await open('/services', { width: 1280, height: 900 });
    try {
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Ydelser');
      const titles = await page.locator('main .service-card h2').allTextContents();
      expect(titles).toEqual(['Synsprøve', 'Brillerens', 'Stelreparation']);
      expect(await page.getByText('Hjemmebesøg').count()).toBe(0);
      expect(await page.locator('main .service-card').first().isVisible()).toBe(true);
      // The stylesheet is applied: the cards sit side by side in a grid on a wide screen.
      const [first, second] = await page.locator('main .service-card').evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().top));
      expect(first).toBe(second);
      await screenshot(page, 'services-desktop');
    } finally {
      await page.close();
    }
  });

  it('opens an offering from the listing', async () => {
    const page = await open('/services', { width: 1280, height: 900 });
    try {
      await page.getByRole('link', { name: 'Stelreparation' }).click();
      await page.waitForURL(`${shop.origin()}/services/stelreparation`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Stelreparation');
      expect(await page.getByText('Fra 150 kr.').isVisible()).toBe(true);
      const image = page.locator('main img.hero-image');
      expect(await image.getAttribute('alt')).toBe('Stelreparation');
      expect(await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await screenshot(page, 'service-desktop');
    } finally {
      await page.close();
    }
  });

  it('renders an /info page with its layout, readable on a phone', async () => {
    const page = await open('/info/om-os', { width: 390, height: 844 });
    try {
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Briller med omtanke');
      expect(await page.getByRole('heading', { name: 'Optiker i huset' }).isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Se vores ydelser' }).isVisible()).toBe(true);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const fontSize = await page.locator('main p').first().evaluate((p) => Number.parseFloat(getComputedStyle(p).fontSize));
      expect(fontSize).toBeGreaterThanOrEqual(16);
      await screenshot(page, 'info-om-os-phone');
    } finally {
      await page.close();
    }
  });

  it('renders an /info page from its body', async () => {
    const page = await open('/info/returret', { width: 1280, height: 900 });
    try {
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Returret');
      expect(await page.getByRole('heading', { level: 2, name: 'Sådan returnerer du' }).isVisible()).toBe(true);
      expect(await page.getByRole('listitem').filter({ hasText: 'Læg kvitteringen i pakken' }).isVisible()).toBe(true);
      await screenshot(page, 'info-returret-desktop');
    } finally {
      await page.close();
    }
  });

  it('shows the styled 404 page for a draft', async () => {
    const page = await shop.newPage({ width: 390, height: 844 });
    try {
      const response = await page.goto(`${shop.origin()}/services/hjemmebesoeg`);
      expect(response?.status()).toBe(404);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Siden findes ikke');
      await screenshot(page, 'not-found-phone');
    } finally {
      await page.close();
    }
  });
});
