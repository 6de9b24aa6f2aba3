import type { ProductRecord } from '../../shop/product-read.ts';

/** How a lookup identifier reached a variant (types/input_correlation.json). */
export type InputMatch = { id: string; match: 'exact' | 'featured' };

export type Shop = { currency: string; baseUrl: string };

/**
 * What checkout calls the item: the SKU, else the slug (ucp/checkout/catalog.ts). A Butik product has one variant, and
 * its id is that item id, so a variant from the catalog goes straight into a checkout's or cart's line item.
 */
export const variantIdOf = (record: ProductRecord) => record.sku ?? record.slug;

/**
 * How an identifier names a product, if it does: the variant id (SKU, else slug) exactly, the product id or
 * the handle (the slug, when a SKU is the variant id) as the product whose one variant is then featured.
 */
export function matchOf(record: ProductRecord, id: string): InputMatch['match'] | undefined {
  if (id === variantIdOf(record)) return 'exact';
  if (id === record.id || id === record.slug) return 'featured';
  return undefined;
}

/** Image URLs are stored absolute (imports) or as paths under the shop (the demo's own images). */
const absolute = (url: string, baseUrl: string) => (/^https?:\/\//i.test(url) ? url : new URL(url, baseUrl).href);

/**
 * A Butik product as UCP's product (types/product.json): one variant with the price in the shop currency's minor
 * units and whether it can be bought now; images and the page as absolute URLs, given once on the product (the one
 * variant is the product). `inputs` marks a lookup's answer.
 */
export function ucpProduct(record: ProductRecord, shop: Shop, inputs?: readonly InputMatch[]) {
  const price = { amount: record.priceDkk, currency: shop.currency };
  const description = { plain: record.description };
  const media = record.images.map((image) => ({ type: 'image', url: absolute(image.url, shop.baseUrl), ...(image.alt ? { alt_text: image.alt } : {}) }));
  const url = `${shop.baseUrl}/products/${encodeURIComponent(record.slug)}`;
  const available = record.stock > 0;
  return {
    id: record.id,
    handle: record.slug,
    title: record.name,
    description,
    url,
    categories: [{ value: record.category.slug, taxonomy: 'merchant' }],
    price_range: { min: price, max: price },
    ...(media.length > 0 ? { media } : {}),
    variants: [{
      id: variantIdOf(record),
      ...(record.sku !== null ? { sku: record.sku } : {}),
      title: record.name,
      description,
      price,
      availability: { available, status: available ? 'in_stock' : 'out_of_stock' },
      ...(inputs ? { inputs } : {}),
    }],
    ...(record.brand ? { tags: [record.brand] } : {}),
    metadata: {
      category: record.category.name,
      ...(record.brand ? { brand: record.brand } : {}),
      ...(record.frameColor ? { frame_color: record.frameColor } : {}),
      ...(record.lensColor ? { lens_color: record.lensColor } : {}),
    },
  };
}
