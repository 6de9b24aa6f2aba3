import { Html } from '../edge/html/template.ts';
import type { ShopProduct } from './catalog-read.ts';
import { decimalPrice } from './money.ts';

/**
 * schema.org data for answer engines, as a JSON-LD block. It is data, not script: the page's CSP runs no
 * script, and `<`, `>` and `&` are escaped so that no text of a product can close the element.
 */
export function jsonLd(value: unknown): Html {
  const json = JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  return new Html(`<script type="application/ld+json">${json}</script>`);
}

/** A schema.org Product with its one Offer; prices in kroner as schema.org expects, VAT included. */
export function productLd(product: ShopProduct, baseUrl: string, currency: string): unknown {
  const url = `${baseUrl}/products/${product.slug}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.description,
    sku: product.sku,
    url,
    ...(product.brand ? { brand: { '@type': 'Brand', name: product.brand } } : {}),
    ...(product.images.length > 0 ? { image: product.images.map((image) => image.url) } : {}),
    category: product.category.name,
    ...(product.frameColor ? { color: product.frameColor } : {}),
    offers: {
      '@type': 'Offer',
      url,
      priceCurrency: currency,
      price: decimalPrice(product.priceDkk, currency),
      availability: product.stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
  };
}
