import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { products } from '../db/schema.ts';
import { SlugRef } from '../schema/common.ts';
import { ProductFields } from '../schema/product.ts';
import { findProduct } from '../shop/catalog.ts';
import { PRODUCT_COLUMNS } from '../shop/product-read.ts';
import type { ProductRow } from '../shop/product-read.ts';
import { defineTool, readOnly, write } from './define-tool.ts';

const ProductContent = z.strictObject({
  slug: z.string(),
  answerSummary: z.string().nullable().meta({ description: 'Short answer-engine summary, or null when none is written.' }),
  faq: z.array(z.strictObject({ q: z.string(), a: z.string() })),
  useCases: z.array(z.strictObject({ title: z.string(), description: z.string() })),
  comparisonFacts: z.record(z.string(), z.string()),
});

function toContent(row: ProductRow): z.input<typeof ProductContent> {
  return {
    slug: row.slug,
    answerSummary: row.answerSummary,
    faq: row.faq,
    useCases: row.useCases,
    comparisonFacts: row.comparisonFacts,
  };
}

export const getProductContent = defineTool({
  name: 'marketing.get_product_content',
  description: 'Read the answer-engine content of a visible product: answerSummary, faq, useCases and comparisonFacts '
    + '(products.get leaves them out). Public catalog copy, but it needs a key with catalog:read. Deleted or unknown '
    + 'slug → 404 not_found.',
  scope: 'catalog:read',
  annotations: readOnly('Get product content'),
  input: z.strictObject({ slug: SlugRef.meta({ description: 'The product slug.', examples: ['aviator-classic'] }) })
    .meta({ examples: [{ slug: 'aviator-classic' }] }),
  output: ProductContent,
  async handler({ slug }, { db }) {
    return toContent(await findProduct(db, slug));
  },
});

export const updateProductContent = defineTool({
  name: 'marketing.update_product_content',
  description: 'Rewrite the answer-engine content of a product without touching price, stock or anything else '
    + '(and without products:write). Give any of answerSummary (≤ 500 characters; null removes it), faq [{q, a}], '
    + 'useCases [{title, description}] and comparisonFacts {fact: value}; each given field replaces the old one whole, '
    + 'fields left out stay. Same rules as products.update. Audited as a product change and revertible with audit.revert.',
  scope: 'marketing:write',
  annotations: write('Update product content', { idempotent: true }),
  input: z.strictObject({
    slug: SlugRef.meta({ description: 'The product to change.', examples: ['aviator-classic'] }),
    answerSummary: ProductFields.answerSummary.nullable().optional()
      .meta({ description: 'Short answer-engine summary, at most 500 characters; null removes it.' }),
    faq: ProductFields.faq.optional().meta({ description: 'Questions and answers, replacing the current list.' }),
    useCases: ProductFields.useCases.optional().meta({ description: 'Use cases, replacing the current list.' }),
    comparisonFacts: ProductFields.comparisonFacts.optional().meta({
      description: 'Facts for comparisons, e.g. {"UV-beskyttelse": "UV400"}, replacing the current ones.',
    }),
  }).refine((input) => Object.keys(input).some((key) => key !== 'slug'), {
    message: 'give at least one of answerSummary, faq, useCases and comparisonFacts',
  }).meta({
    examples: [{
      slug: 'aviator-classic',
      answerSummary: 'Klassisk pilotbrille i tyndt metal med UV400-glas.',
      faq: [{ q: 'Er glassene polariserede?', a: 'Nej, men de blokerer 100 % UV.' }],
    }],
  }),
  output: ProductContent,
  async handler({ slug, ...content }, ctx) {
    const before = await findProduct(ctx.db, slug, { lock: true });
    const [after] = await ctx.db.update(products).set({ ...content, updatedAt: ctx.clock() })
      .where(eq(products.id, before.id)).returning(PRODUCT_COLUMNS);
    if (!after) throw new Error('product update returned no row');
    await ctx.audit({ targetType: 'product', targetId: before.id, before, after });
    return toContent(after);
  },
});
