import type { TestApp } from './app.ts';
import { MASTER_KEY } from './app.ts';

export const master = { key: MASTER_KEY };

let counter = 0;
export function uniqueSlug(prefix = 'item'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

export async function createCategory(t: TestApp, slug = uniqueSlug('cat'), name = 'Solbriller') {
  const response = await t.call('categories.upsert', { slug, name }, master);
  if (response.status !== 200) throw new Error(`category fixture failed: ${JSON.stringify(response.body)}`);
  return response.body.result as { id: string; slug: string; name: string };
}

export async function createProduct(t: TestApp, fields: Record<string, unknown> = {}) {
  const categorySlug = typeof fields.categorySlug === 'string' || typeof fields.categoryId === 'string'
    ? {}
    : { categorySlug: (await createCategory(t)).slug };
  const body = {
    slug: uniqueSlug('product'),
    name: 'Aviator Classic',
    description: 'A classic pilot frame in thin metal.',
    priceDkk: 129900,
    stock: 10,
    ...categorySlug,
    ...fields,
  };
  const response = await t.call('products.create', body, master);
  if (response.status !== 200) throw new Error(`product fixture failed: ${JSON.stringify(response.body)}`);
  return { ...(response.body.result as { id: string; slug: string }), body };
}
