// The product card (ui://butik/product-card) for products.get (one product) and products.search (a list).
import type { App } from '@modelcontextprotocol/ext-apps';
import { el, isRecord, link, price, shopUrl, startView } from './view-kit.ts';
import type { ShopFacts } from './view-kit.ts';

type Shown = { slug: string; name: string; brand: string | null; priceDkk: number; stock: number; image: string | null };

/** products.get's result, or one row of products.search's: the members the card shows. */
function shownProduct(value: unknown): Shown | undefined {
  if (!isRecord(value) || typeof value.slug !== 'string' || typeof value.name !== 'string'
    || typeof value.priceDkk !== 'number' || typeof value.stock !== 'number') return undefined;
  const images = Array.isArray(value.images) ? value.images : [];
  const image = typeof value.firstImage === 'string' ? value.firstImage : typeof images[0] === 'string' ? images[0] : null;
  return { slug: value.slug, name: value.name, brand: typeof value.brand === 'string' ? value.brand : null, priceDkk: value.priceDkk, stock: value.stock, image };
}

/** The storefront's own words for stock (the product page's). */
function stockWords(stock: number): string {
  return stock > 0 ? `På lager (${stock} stk.)` : 'Udsolgt';
}

function card(product: Shown, shop: ShopFacts, app: App, heading: 'h1' | 'h2'): HTMLElement {
  const article = el('article', 'card');
  // Only the shop's own images: the resource's CSP admits no other origin, and a broken image helps no one.
  const image = product.image === null ? undefined : shopUrl(product.image, shop);
  if (image) {
    const img = el('img', 'photo');
    img.src = image;
    img.alt = '';
    article.append(img);
  }
  const body = el('div', 'body', el(heading, 'name', product.name));
  if (product.brand) body.append(el('p', 'brand', product.brand));
  body.append(el('p', 'price', price(product.priceDkk, shop)));
  body.append(el('p', product.stock > 0 ? 'stock' : 'stock sold-out', stockWords(product.stock)));
  const page = shopUrl(`/products/${encodeURIComponent(product.slug)}`, shop);
  if (page) body.append(link(app, page, 'button', 'Se varen i butikken'));
  article.append(body);
  return article;
}

startView('Butik product card', (result, shop, app) => {
  const one = shownProduct(result);
  if (one) return [card(one, shop, app, 'h1')];
  if (!isRecord(result) || !Array.isArray(result.result)) return undefined;
  const found = result.result.map(shownProduct).filter((product): product is Shown => product !== undefined);
  if (found.length === 0) return [el('p', 'note', 'Ingen varer fundet.')];
  const list = el('ul', 'cards', ...found.map((product) => el('li', '', card(product, shop, app, 'h2'))));
  return [el('h1', 'visually-hidden', `${found.length} varer`), list];
});
