import pg from 'pg';

/**
 * products.get for the bare baselines (node:http and Fastify): Butik's statement, prepared by name as Butik
 * prepares it, and the same JSON.
 */
export function baselinePool(): pg.Pool {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  // Same parsing as Butik's driver setup: bigint money as numbers.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  return new pg.Pool({ connectionString: url, max: 10 });
}

/** The statement of products.get (src/shop/product-read.ts), prepared by name like Butik's. */
const GET_PRODUCT = {
  name: 'products_get_by_slug',
  text: `select products.id, products.sku, products.slug, products.name, products.brand, products.description, products.price_dkk,
    products.stock, products.featured, products.frame_color, products.lens_color, products.images, products.created_at,
    categories.slug as category_slug, categories.name as category_name, categories.description as category_description
    from products inner join categories on categories.id = products.category_id
    where (products.slug = $1 and products.deleted_at is null and categories.deleted_at is null)`,
};

type ProductRow = {
  id: string; slug: string; name: string; brand: string | null; description: string; price_dkk: number; stock: number;
  featured: boolean; frame_color: string | null; lens_color: string | null; images: Array<{ url: string }>;
  created_at: Date; category_slug: string; category_name: string; category_description: string | null;
};

export async function getProduct(pool: pg.Pool, slug: string) {
  const product = (await pool.query<ProductRow>({ ...GET_PRODUCT, values: [slug] })).rows[0];
  if (!product) return undefined;
  return {
    id: product.id,
    slug: product.slug,
    name: product.name,
    brand: product.brand,
    description: product.description,
    priceDkk: product.price_dkk,
    stock: product.stock,
    featured: product.featured,
    frameColor: product.frame_color,
    lensColor: product.lens_color,
    images: product.images.map((image) => image.url),
    category: { slug: product.category_slug, name: product.category_name, description: product.category_description },
    createdAt: product.created_at.toISOString(),
  };
}
