import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMinorUnits } from '../../src/domain/money-format.ts';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { listeningTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { connect } from '../mcp/mcp-client.ts';
import { ARTIFACTS, MISSING, expectAccessible, expectNoHorizontalScroll, launchChromium, screenshot } from './chromium.ts';

/** The widths a chat gives a view: a phone's whole width and a desktop chat column. */
const WIDTHS = [{ width: 375, height: 812 }, { width: 700, height: 900 }] as const;
const PRODUCT = 'aviator-classic';

type View = { html: string; csp: string };

let t: TestApp | undefined;
let browser: Browser | undefined;
let hostServer: Server | undefined;
let client: Client | undefined;
let origin = '';
let hostOrigin = '';
const views = new Map<string, View>();

/**
 * The CSP a host puts around a view, from the `_meta.ui.csp` its resource declares: its own inline script and
 * style, images from the declared domains, and no connections.
 */
function hostCsp(csp: { connectDomains?: string[]; resourceDomains?: string[] }): string {
  const images = [...(csp.resourceDomains ?? []), 'data:'].join(' ');
  const connect = csp.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'";
  return `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src ${images}; connect-src ${connect}`;
}

beforeAll(async () => {
  if (MISSING) return;
  ({ t, base: origin } = await listeningTestApp({ env: { BUTIK_UCP_MODE: 'test' } }));
  await seedDemoStore(t.database.db, { baseUrl: origin });
  client = await connect(new URL('/api/mcp', origin), { key: master.key });
  for (const uri of ['ui://butik/product-card', 'ui://butik/cart']) {
    const [content] = (await client.readResource({ uri })).contents as unknown as Array<{ text: string; _meta: { ui: { csp: object } } }>;
    views.set(uri, { html: content!.text, csp: hostCsp(content!._meta.ui.csp) });
  }
  // The chat host: a page of its own origin whose script is the SDK's AppBridge.
  const bundled = await build({ entryPoints: [join(import.meta.dirname, 'mcp-apps-host.ts')], bundle: true, write: false, format: 'esm', platform: 'browser', logLevel: 'silent' });
  const script = bundled.outputFiles[0]!.text;
  hostServer = createServer((request, response) => {
    if (request.url === '/host.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="en"><head><meta charset="utf-8">'
      + '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Chat</title>'
      + '<style>body { margin: 0; } iframe { display: block; width: 100%; border: 0; }</style></head>'
      + '<body><main id="chat"><h1 style="font: 1rem sans-serif; margin: 0.5rem">Chat</h1></main><script type="module" src="/host.js"></script></body></html>');
  });
  await new Promise<void>((resolve) => hostServer!.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://127.0.0.1:${(hostServer.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  try {
    await browser?.close();
    await client?.close();
    await new Promise((resolve) => hostServer ? hostServer.close(resolve) : resolve(undefined));
  } finally {
    await t?.close();
  }
});

/** The host page at a width, with one view showing a tool result; returns the page and the view's frame. */
async function show(uri: string, result: CallToolResult, viewport: { width: number; height: number }): Promise<{ page: Page; frame: Frame; errors: string[] }> {
  const view = views.get(uri)!;
  const page = await browser!.newPage({ viewport, locale: 'da-DK' });
  const errors: string[] = [];
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  await page.goto(hostOrigin, { waitUntil: 'load' });
  await page.waitForFunction(() => 'showView' in window);
  await page.evaluate(async ([html, csp, toolResult]) => {
    await (window as unknown as { showView(h: string, c: string, r: unknown): Promise<void> }).showView(html, csp, toolResult);
  }, [view.html, view.csp, result] as const);
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
  if (!frame) throw new Error('no view frame');
  return { page, frame, errors };
}

/** Waits until the host has sized the iframe to the view's whole height (the App reports it after each layout). */
async function sized(page: Page, frame: Frame): Promise<void> {
  const content = () => frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await expect.poll(async () => (await page.locator('iframe').evaluate((iframe) => iframe.clientHeight)) >= (await content())).toBe(true);
}

const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
const dkk = (minor: number) => squash(formatMinorUnits(minor, 'DKK', 'da-DK'));

describe.skipIf(MISSING)('MCP Apps views in a chat host', () => {
  it('shows products.get as a card: the image, the name, the price in kroner, the stock and a link to the product page', async () => {
    const result = await client!.callTool({ name: 'products.get', arguments: { slug: PRODUCT } }) as CallToolResult;
    const product = result.structuredContent as { name: string; priceDkk: number; stock: number };
    for (const viewport of WIDTHS) {
      const { page, frame, errors } = await show('ui://butik/product-card', result, viewport);
      try {
        const heading = frame.getByRole('heading', { level: 1 });
        await heading.waitFor();
        expect(await heading.textContent()).toBe(product.name);
        expect(squash(await frame.locator('.price').textContent())).toBe(dkk(product.priceDkk));
        expect(await frame.locator('.stock').textContent()).toBe(`På lager (${product.stock} stk.)`);
        // The shop's own image loads under the declared CSP.
        await expect.poll(() => frame.locator('img.photo').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
        const link = frame.getByRole('link', { name: 'Se varen i butikken' });
        expect(await link.getAttribute('href')).toBe(`${origin}/products/${PRODUCT}`);
        await link.click();
        await expect.poll(() => page.evaluate(() => (window as unknown as { openedLinks: string[] }).openedLinks)).toEqual([`${origin}/products/${PRODUCT}`]);
        await expectNoHorizontalScroll(page, `product card at ${viewport.width}`);
        expect(await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
        await expectAccessible(frame, `product card at ${viewport.width}`);
        await sized(page, frame);
        await screenshot(page, `mcp-app-product-card-${viewport.width}`);
        // The view alone, as the README shows it (docs/images/mcp-app-product-card.png is one of these).
        await page.locator('iframe').screenshot({ path: join(ARTIFACTS, `mcp-app-product-card-${viewport.width}-view.png`) });
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });

  it('shows products.search as a list of cards', async () => {
    const result = await client!.callTool({ name: 'products.search', arguments: { q: 'solbriller', limit: 3 } }) as CallToolResult;
    const found = (result.structuredContent as { result: Array<{ name: string }> }).result;
    expect(found.length).toBeGreaterThan(1);
    // Tall enough for the whole list in one screenshot.
    const { page, frame } = await show('ui://butik/product-card', result, { width: 375, height: 1600 });
    try {
      await frame.locator('.cards').waitFor();
      expect(await frame.getByRole('heading', { level: 2 }).allTextContents()).toEqual(found.map((product) => product.name));
      await expectAccessible(frame, 'search result cards');
      await sized(page, frame);
      await screenshot(page, 'mcp-app-search-375');
    } finally {
      await page.close();
    }
  });

  it('shows cart.get as the cart: its lines, totals in kroner and a link to pay on the buyer page', async () => {
    const created = await client!.callTool({ name: 'cart.create', arguments: { items: [{ slug: PRODUCT, quantity: 2 }] } }) as CallToolResult;
    const { cartId } = created.structuredContent as { cartId: string };
    const result = await client!.callTool({ name: 'cart.get', arguments: { cartId } }) as CallToolResult;
    const cart = result.structuredContent as { items: Array<{ productName: string; lineTotalDkk: number }>; totalDkk: number };
    for (const viewport of WIDTHS) {
      const { page, frame, errors } = await show('ui://butik/cart', result, viewport);
      try {
        await frame.getByRole('heading', { name: 'Kurv' }).waitFor();
        expect(await frame.locator('.line-name').allTextContents()).toEqual(cart.items.map((item) => item.productName));
        expect(squash(await frame.locator('.line-total').first().textContent())).toBe(dkk(cart.items[0]!.lineTotalDkk));
        expect(squash(await frame.locator('.grand dd').textContent())).toBe(dkk(cart.totalDkk));
        const pay = frame.getByRole('link', { name: 'Gå til kassen' });
        expect(await pay.getAttribute('href')).toBe(`${origin}/checkout/cart/${cartId}`);
        await expectNoHorizontalScroll(page, `cart at ${viewport.width}`);
        expect(await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
        await expectAccessible(frame, `cart at ${viewport.width}`);
        await sized(page, frame);
        await screenshot(page, `mcp-app-cart-${viewport.width}`);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });
});
