import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import { baselineSearch } from './baseline-search.ts';

/**
 * The benchmark's floor: plain node:http and pg, the same SQL and the same JSON as Butik's products.search and
 * products.get, and nothing else (no framework, validation, authentication, rate limits, logging). Butik's
 * req/s is reported as a ratio of this server's. Started by bench/run.ts; prints {"port": N} when listening.
 */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const pool = new pg.Pool({ connectionString: url, max: 10 });
// Same parsing as Butik's driver setup: bigint money as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

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

async function getProduct(slug: string) {
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

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

const server = createServer((request, response) => {
  readBody(request).then(async (text) => {
    const input: unknown = JSON.parse(text);
    if (typeof input !== 'object' || input === null) return send(response, 400, { ok: false });
    if (request.url === '/api/v1/tools/products.search') {
      return send(response, 200, { ok: true, result: await baselineSearch(pool, input) });
    }
    if (request.url === '/api/v1/tools/products.get' && 'slug' in input && typeof input.slug === 'string') {
      const product = await getProduct(input.slug);
      return product ? send(response, 200, { ok: true, result: product }) : send(response, 404, { ok: false });
    }
    return send(response, 404, { ok: false });
  }).catch((error: unknown) => {
    process.stderr.write(`baseline: ${error instanceof Error ? error.message : String(error)}\n`);
    send(response, 500, { ok: false });
  });
});
server.keepAliveTimeout = 65_000;

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
const stop = () => server.close(() => { pool.end().finally(() => process.exit(0)); });
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
