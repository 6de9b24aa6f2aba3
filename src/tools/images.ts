import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { products } from '../db/schema.ts';
import { defineTool, readOnly } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import { containsPattern } from './text-match.ts';

/** One row per attached image, in the order the product lists them (ordinality starts at 1). */
const image = {
  elements: sql`jsonb_array_elements(${products.images}) with ordinality as image(value, position)`,
  url: sql<string>`image.value->>'url'`,
  alt: sql<string>`coalesce(image.value->>'alt', '')`,
  position: sql`image.position`,
};

export const searchImages = defineTool({
  name: 'images.search',
  description: 'Find the images attached to visible products (see products.attach_image): url, alt text, product slug '
    + 'and name. q matches part of the alt text or of the product name, case-insensitively; productSlug limits the '
    + 'search to one product (an unknown or deleted one gives []). alt is "" when the image has none. Newest products '
    + 'first, each product\'s images in their own order. Needs a key with catalog:read (not anonymous).',
  scope: 'catalog:read',
  annotations: readOnly('Search product images'),
  input: z.strictObject({
    q: z.string().trim().min(1).max(200).optional().meta({
      description: 'Case-insensitive part of the alt text or the product name.',
      examples: ['aviator', 'front'],
    }),
    productSlug: z.string().min(1).max(200).optional().meta({ description: 'Only this product\'s images.', examples: ['aviator-classic'] }),
    limit: z.int().min(1).max(100).default(20).meta({ description: 'Page size, 1..100.' }),
    offset: z.int().min(0).max(10_000).default(0).meta({ description: 'Images to skip, 0..10000.' }),
  }).meta({ examples: [{ q: 'aviator', limit: 10 }] }),
  output: z.array(z.strictObject({
    url: z.string(),
    alt: z.string().meta({ description: 'Alternative text; "" when the image has none.' }),
    productSlug: z.string(),
    productName: z.string(),
  })),
  async handler({ q, productSlug, limit, offset }, { db }) {
    const conditions: SQL[] = [isNull(products.deletedAt)];
    if (productSlug !== undefined) conditions.push(eq(products.slug, productSlug));
    if (q !== undefined) {
      const pattern = containsPattern(q);
      conditions.push(sql`(${image.alt} ilike ${pattern} or ${products.name} ilike ${pattern})`);
    }
    return db.select({ url: image.url, alt: image.alt, productSlug: products.slug, productName: products.name })
      .from(products)
      .crossJoinLateral(image.elements)
      .where(and(...conditions))
      .orderBy(desc(products.createdAt), desc(products.id), asc(image.position))
      .limit(limit)
      .offset(offset);
  },
});

export const imageTools: AnyTool[] = [searchImages];
