import { and, desc, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { categories, products } from '../db/schema.ts';
import { ProductSummary } from '../schema/product.ts';
import { defineTool, readOnly } from './define-tool.ts';

const Filter = z.string().min(1).max(200);
const PriceBound = z.int().min(0);

export const SearchInput = z.strictObject({
  q: z.string().max(200).optional().meta({
    description: 'Free text over name, brand and description. Matches word prefixes and tolerates small typos.',
    examples: ['aviator', 'polariseret'],
  }),
  categorySlug: Filter.optional().meta({ description: 'Exact category slug, case-insensitive.' }),
  brand: Filter.optional().meta({ description: 'Exact brand, case-insensitive.' }),
  frameColor: Filter.optional().meta({ description: 'Exact frame colour, case-insensitive.' }),
  lensColor: Filter.optional().meta({ description: 'Exact lens colour, case-insensitive.' }),
  featured: z.boolean().optional().meta({ description: 'true: only featured; false: only non-featured.' }),
  inStock: z.boolean().optional().meta({ description: 'true: stock > 0; false: stock = 0.' }),
  minPriceOere: PriceBound.optional().meta({ description: 'Lowest price in øre, inclusive.' }),
  maxPriceOere: PriceBound.optional().meta({ description: 'Highest price in øre, inclusive.' }),
  limit: z.int().min(1).max(100).default(20).meta({ description: 'Page size, 1..100.' }),
  offset: z.int().min(0).max(10_000).default(0).meta({ description: 'Matching products to skip, 0..10000.' }),
});

/** Letters and digits in any script; everything else separates words and never reaches tsquery syntax. */
const WORD = /[\p{L}\p{N}]+/gu;

/** "wayfarer sort" → `wayfarer:* & sort:*`: every word must match, each as a prefix. */
export function prefixQuery(q: string): string | undefined {
  const words = q.toLowerCase().match(WORD);
  return words ? words.map((word) => `${word}:*`).join(' & ') : undefined;
}

function textMatch(q: string): { where: SQL; rank: SQL } | undefined {
  const tsquery = prefixQuery(q);
  if (!tsquery) return undefined;
  const needle = q.toLowerCase().trim();
  const query = sql`to_tsquery('simple', ${tsquery})`;
  return {
    // The trigram arm catches typos ("aviatr") that no prefix matches; both arms are index-backed.
    where: sql`(${products.searchVector} @@ ${query} or ${needle} <% lower(${products.name}))`,
    rank: sql`ts_rank(${products.searchVector}, ${query}) + word_similarity(${needle}, lower(${products.name}))`,
  };
}

export const searchProducts = defineTool({
  name: 'products.search',
  description: 'Search the visible catalog. All filters are optional and combine with AND; prices are in øre incl. VAT. '
    + 'Ordered by relevance when q is given, otherwise newest first. Page with limit and offset.',
  scope: 'catalog:read',
  anonymous: true,
  annotations: readOnly('Search products'),
  input: SearchInput,
  output: z.array(ProductSummary),
  async handler(input, { db }) {
    const conditions: SQL[] = [isNull(products.deletedAt)];
    const text = input.q !== undefined ? textMatch(input.q) : undefined;
    if (text) conditions.push(text.where);
    if (input.categorySlug !== undefined) conditions.push(sql`${categories.slug} = lower(${input.categorySlug})`);
    if (input.brand !== undefined) conditions.push(sql`lower(${products.brand}) = lower(${input.brand})`);
    if (input.frameColor !== undefined) conditions.push(sql`lower(${products.frameColor}) = lower(${input.frameColor})`);
    if (input.lensColor !== undefined) conditions.push(sql`lower(${products.lensColor}) = lower(${input.lensColor})`);
    if (input.featured !== undefined) conditions.push(eq(products.featured, input.featured));
    if (input.inStock === true) conditions.push(sql`${products.stock} > 0`);
    if (input.inStock === false) conditions.push(eq(products.stock, 0));
    if (input.minPriceOere !== undefined) conditions.push(gte(products.priceDkk, input.minPriceOere));
    if (input.maxPriceOere !== undefined) conditions.push(lte(products.priceDkk, input.maxPriceOere));

    const order = [desc(products.createdAt), desc(products.id)];
    const rows = await db
      .select({
        id: products.id,
        slug: products.slug,
        name: products.name,
        brand: products.brand,
        priceDkk: products.priceDkk,
        stock: products.stock,
        featured: products.featured,
        frameColor: products.frameColor,
        lensColor: products.lensColor,
        categorySlug: categories.slug,
        categoryName: categories.name,
        firstImage: sql<string | null>`${products.images}->0->>'url'`,
      })
      .from(products)
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .where(and(...conditions))
      .orderBy(...(text ? [desc(text.rank), ...order] : order))
      .limit(input.limit)
      .offset(input.offset);
    return rows;
  },
});
