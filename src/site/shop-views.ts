import type { ProductPage, ShopCategory, ShopProduct } from './catalog-read.ts';
import type { PageView } from './document.ts';
import { html, link, safeSrc } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { jsonLd, productLd } from './json-ld.ts';
import { renderBodyText } from './markup.ts';
import { formatPrice } from './money.ts';
import { MAX_QUANTITY } from '../schema/cart.ts';


export const PRODUCTS_PER_PAGE = 24;

function productCard(product: ShopProduct, currency: string): Html {
  const image = safeSrc(product.images[0]?.url);
  return html`<li class="product-card"><a href="/products/${product.slug}">
${image ? html`<img src="${image}" alt="${product.images[0]?.alt ?? product.name}" loading="lazy" width="320" height="200">` : ''}
<span class="product-name">${product.name}</span>
${product.brand ? html`<span class="product-brand">${product.brand}</span>` : ''}
<span class="price">${formatPrice(product.priceDkk, currency)}</span>
${product.stock > 0 ? '' : html`<span class="sold-out">Udsolgt</span>`}
</a></li>`;
}

function productGrid(items: readonly ShopProduct[], currency: string): Html {
  return items.length === 0
    ? html`<p>Der er ingen varer at vise her lige nu.</p>`
    : html`<ul class="product-grid">${items.map((product) => productCard(product, currency))}</ul>`;
}

function categoryLinks(categories: readonly ShopCategory[]): Html {
  return html`<ul class="category-list">${categories.map((category) =>
    html`<li>${link(`/categories/${category.slug}`, category.name)} <span class="muted">(${category.productCount})</span></li>`)}</ul>`;
}

export function frontPageView(options: {
  storeName: string; tagline: string | null; featured: readonly ShopProduct[]; categories: readonly ShopCategory[]; currency: string;
}): PageView {
  return {
    title: options.tagline ?? 'Forside',
    description: `${options.storeName}: ${options.categories.map((category) => category.name).join(', ')}.`,
    path: '/',
    main: html`<section class="intro">
<h1>${options.storeName}</h1>
${options.tagline ? html`<p class="lead">${options.tagline}</p>` : ''}
<p>${link('/products', 'Se alle varer', { class: 'button button-primary' })}</p>
</section>
<section aria-labelledby="udvalgte"><h2 id="udvalgte">Udvalgte varer</h2>
${productGrid(options.featured, options.currency)}
</section>
<section aria-labelledby="kategorier"><h2 id="kategorier">Kategorier</h2>
${categoryLinks(options.categories)}
</section>
<section aria-labelledby="udviklere" class="developers"><h2 id="udviklere">For udviklere og AI-agenter</h2>
<p>Butikken har et API til agenter og integrationer: REST og MCP. Læs ${link('/docs', 'API-dokumentationen')}.</p>
</section>`,
  };
}

function pager(basePath: string, page: number, pages: number): Html {
  if (pages <= 1) return html``;
  const href = (n: number) => (n === 1 ? basePath : `${basePath}?page=${n}`);
  return html`<nav class="pager" aria-label="Sider">
${page > 1 ? link(href(page - 1), '← Forrige') : ''}
<span>Side ${page} af ${pages}</span>
${page < pages ? link(href(page + 1), 'Næste →') : ''}
</nav>`;
}

export function productListView(
  listing: ProductPage,
  options: { page: number; categories: readonly ShopCategory[]; currency: string },
): PageView {
  const pages = Math.max(1, Math.ceil(listing.total / PRODUCTS_PER_PAGE));
  return {
    title: options.page > 1 ? `Alle varer, side ${options.page}` : 'Alle varer',
    description: `${listing.total} varer.`,
    path: '/products',
    main: html`<h1>Alle varer</h1>
<p class="lead">${listing.total} varer i alt.</p>
${categoryLinks(options.categories)}
${productGrid(listing.products, options.currency)}
${pager('/products', options.page, pages)}`,
  };
}

export function categoryView(category: ShopCategory, listing: ProductPage, page: number, currency: string): PageView {
  const pages = Math.max(1, Math.ceil(listing.total / PRODUCTS_PER_PAGE));
  return {
    title: category.name,
    description: category.description,
    path: `/categories/${category.slug}`,
    main: html`<nav class="breadcrumb" aria-label="Brødkrumme">${link('/products', 'Alle varer')}</nav>
<h1>${category.name}</h1>
${category.description ? html`<p class="lead">${category.description}</p>` : ''}
${productGrid(listing.products, currency)}
${pager(`/categories/${category.slug}`, page, pages)}`,
  };
}

/** The product page's Buy button: a CSRF-protected form that starts a checkout for the product (POST /checkout). */
export type BuyButton = { csrfToken: string };

function buyForm(product: ShopProduct, buy: BuyButton): Html {
  return html`<form method="post" action="/checkout" class="buy-form">
<input type="hidden" name="_csrf" value="${buy.csrfToken}">
<input type="hidden" name="product" value="${product.slug}">
<label for="antal">Antal</label>
<input id="antal" name="quantity" type="number" inputmode="numeric" min="1" max="${Math.min(product.stock, MAX_QUANTITY)}" value="1" required>
<button type="submit" class="button button-primary">Køb</button>
</form>`;
}

export function productView(product: ShopProduct, baseUrl: string, currency: string, buy?: BuyButton): PageView {
  const image = safeSrc(product.images[0]?.url);
  const facts: Array<[string, string | null]> = [
    ['Mærke', product.brand], ['Stel', product.frameColor], ['Glas', product.lensColor], ['Kategori', product.category.name],
  ];
  return {
    title: product.name,
    description: product.description,
    path: `/products/${product.slug}`,
    main: html`<nav class="breadcrumb" aria-label="Brødkrumme">${link('/products', 'Alle varer')} / ${link(`/categories/${product.category.slug}`, product.category.name)}</nav>
<article class="product">
${image ? html`<img class="product-image" src="${image}" alt="${product.images[0]?.alt ?? product.name}" width="640" height="400">` : ''}
<div class="product-text">
<h1>${product.name}</h1>
<p class="price product-price">${formatPrice(product.priceDkk, currency)} <span class="muted">inkl. moms</span></p>
<p class="stock">${product.stock > 0 ? `På lager (${product.stock} stk.)` : 'Udsolgt'}</p>
${buy && product.stock > 0 ? buyForm(product, buy) : ''}
<dl class="facts">${facts.filter(([, value]) => value).map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>
<div class="product-description">${renderBodyText(product.description)}</div>
</div>
</article>
${jsonLd(productLd(product, baseUrl, currency))}`,
  };
}
