import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { products } from '../db/schema.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { ToolError } from '../errors/tool-error.ts';
import { Confirm, HttpsImageUrl, Id, PositiveInt, Slug, SlugRef, Timestamp, toIso, money } from '../schema/common.ts';
import { ProductFields, ProductRef } from '../schema/product.ts';
import { findProduct, productNotFound, resolveCategoryId } from '../shop/catalog.ts';
import { PRODUCT_COLUMNS, productRecordBySlug } from '../shop/product-read.ts';
import { currentVersion } from '../shop/record-version.ts';
import { belowOneKrone } from './money-warnings.ts';
import { requireVersion } from './version-check.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import { adjustProductStock } from './product-stock.ts';
import { searchProducts } from './products-search.ts';

/** Every writable product field with its rule (docs/behaviour.md#products); create and update's patch both derive from it. */
const ProductWrite = z.strictObject(ProductFields);
const OPTIONAL_ON_CREATE = {
  brand: true, frameColor: true, lensColor: true, featured: true, images: true, attributes: true, answerSummary: true,
  faq: true, useCases: true, comparisonFacts: true, categoryId: true, categorySlug: true,
} as const;

const categoryRefMessage = 'give exactly one of categoryId and categorySlug';

export const getProduct = defineTool({
  name: 'products.get',
  description: 'Get one product by slug: description, price in øre (incl. VAT), stock, images and category.',
  scope: 'catalog:read',
  anonymous: true,
  annotations: readOnly('Get product'),
  input: z.strictObject({ slug: SlugRef.meta({ description: 'The product slug.', examples: ['aviator-classic'] }) })
    .meta({ examples: [{ slug: 'aviator-classic' }] }),
  output: z.strictObject({
    id: Id,
    slug: z.string(),
    name: z.string(),
    brand: z.string().nullable(),
    description: z.string(),
    priceDkk: money(z.int(), 'the price, VAT included.'),
    stock: z.int(),
    featured: z.boolean(),
    frameColor: z.string().nullable(),
    lensColor: z.string().nullable(),
    images: z.array(z.string()),
    category: z.strictObject({ slug: z.string(), name: z.string(), description: z.string().nullable() }),
    createdAt: Timestamp,
  }),
  async handler({ slug }, { db }) {
    const product = await productRecordBySlug(db, slug);
    if (!product) throw await productNotFound(db, slug);
    return {
      id: product.id,
      slug: product.slug,
      name: product.name,
      brand: product.brand,
      description: product.description,
      priceDkk: product.priceDkk,
      stock: product.stock,
      featured: product.featured,
      frameColor: product.frameColor,
      lensColor: product.lensColor,
      images: product.images.map((image) => image.url),
      category: product.category,
      createdAt: toIso(product.createdAt),
    };
  },
  version: (product, { db }) => currentVersion(db, products, product.id),
});

export const createProduct = defineTool({
  name: 'products.create',
  description: 'Create a product. priceDkk is in øre (149900 = 1.499,00 kr), not kroner; a price under 100 øre is '
    + 'created but answered with a warning. Give the category as exactly one of categoryId or categorySlug.',
  scope: 'products:write',
  annotations: write('Create product', { idempotent: false }),
  input: z.strictObject({
    slug: Slug,
    ...ProductWrite.partial(OPTIONAL_ON_CREATE).shape,
    featured: ProductFields.featured.default(false),
    images: ProductFields.images.default([]),
  }).refine((input) => (input.categoryId === undefined) !== (input.categorySlug === undefined), {
    message: categoryRefMessage,
    path: ['categoryId'],
  })
    .meta({ examples: [{ slug: 'aviator-classic', name: 'Aviator Classic', description: 'Klassisk pilotbrille med metalstel og polariserede glas.', priceDkk: 149900, stock: 25, brand: 'Ray-Ban', frameColor: 'guld', lensColor: 'grøn', categorySlug: 'solbriller', images: ['https://img.example.dk/aviator-classic.jpg'] }] }),
  output: ProductRef,
  warnings: (input) => belowOneKrone('priceDkk', input.priceDkk),
  async handler(input, ctx) {
    const { categoryId, categorySlug, images, ...fields } = input;
    const category = await resolveCategoryId(ctx.db, { categoryId, categorySlug });
    if (category === undefined) throw new ToolError('validation_failed', categoryRefMessage);
    const [existing] = await ctx.db.select({ id: products.id }).from(products).where(eq(products.slug, input.slug));
    if (existing) throw new ToolError('already_exists', `A product with slug "${input.slug}" already exists.`);
    try {
      const [row] = await ctx.db.insert(products).values({
        ...fields,
        categoryId: category,
        images: images.map((url) => ({ url })),
      }).returning(PRODUCT_COLUMNS);
      if (!row) throw new Error('insert returned no row');
      await ctx.audit({ targetType: 'product', targetId: row.id, before: null, after: row });
      return { id: row.id, slug: row.slug };
    } catch (error) {
      if (isUniqueViolation(error)) throw new ToolError('already_exists', `A product with slug "${input.slug}" already exists.`);
      throw error;
    }
  },
});

/** The new list of image URLs as stored images: a URL the product already had keeps its alt text and source. */
function keptImages(current: ReadonlyArray<{ url: string }>, urls: readonly string[]) {
  const byUrl = new Map(current.map((image) => [image.url, image]));
  return urls.map((url) => byUrl.get(url) ?? { url });
}

export const updateProduct = defineTool({
  name: 'products.update',
  description: 'Change fields of a product. The slug identifies the product and cannot be changed '
    + '(422 slug_immutable). Same field rules as products.create; prices in øre (a price under 100 øre is saved '
    + 'but answered with a warning).',
  scope: 'products:write',
  annotations: write('Update product', { idempotent: true }),
  input: z.strictObject({
    slug: SlugRef.meta({ description: 'The product to change.' }),
    patch: z.strictObject({
      slug: z.string().optional().meta({ description: 'Not changeable: any value other than the current slug is rejected.' }),
      ...ProductWrite.partial().shape,
    }).refine((patch) => patch.categoryId === undefined || patch.categorySlug === undefined, {
      message: 'give at most one of categoryId and categorySlug',
      path: ['categoryId'],
    }).meta({ description: 'The fields to change, with the rules of products.create; omitted fields stay as they are.' }),
  }).meta({ examples: [{ slug: 'aviator-classic', patch: { priceDkk: 129900, stock: 40 } }] }),
  output: ProductRef,
  warnings: ({ patch }) => belowOneKrone('patch.priceDkk', patch.priceDkk),
  async handler({ slug, patch }, ctx) {
    const before = await findProduct(ctx.db, slug, { lock: true });
    await requireVersion(ctx, {
      table: products, id: before.id, readTool: 'products.get', current: () => getProduct.handler({ slug: before.slug }, ctx),
    });
    if (patch.slug !== undefined && patch.slug !== before.slug) {
      throw new ToolError('slug_immutable', `The slug of product "${slug}" cannot be changed to "${patch.slug}".`);
    }
    const { slug: _unchanged, categoryId, categorySlug, images, ...fields } = patch;
    const category = await resolveCategoryId(ctx.db, { categoryId, categorySlug });
    const [after] = await ctx.db.update(products).set({
      ...fields,
      ...(category !== undefined ? { categoryId: category } : {}),
      ...(images !== undefined ? { images: keptImages(before.images, images) } : {}),
      updatedAt: ctx.clock(),
    }).where(eq(products.id, before.id)).returning(PRODUCT_COLUMNS);
    await ctx.audit({ targetType: 'product', targetId: before.id, before, after });
    return { id: before.id, slug: before.slug };
  },
  version: (product, { db }) => currentVersion(db, products, product.id),
});

export const deleteProduct = defineTool({
  name: 'products.delete',
  description: 'Soft-delete a product: it disappears from the catalog at once and can be restored with audit.revert. '
    + 'Requires confirm: true.',
  scope: 'products:write',
  annotations: write('Delete product', { idempotent: true, destructive: true }),
  input: z.strictObject({ slug: SlugRef.meta({ description: 'The product to delete.' }), confirm: Confirm })
    .meta({ examples: [{ slug: 'aviator-classic', confirm: true }] }),
  output: z.strictObject({ ok: z.literal(true), slug: z.string() }),
  async handler({ slug }, ctx) {
    const before = await findProduct(ctx.db, slug, { lock: true });
    const [after] = await ctx.db.update(products).set({ deletedAt: ctx.clock(), updatedAt: ctx.clock() })
      .where(eq(products.id, before.id)).returning(PRODUCT_COLUMNS);
    await ctx.audit({ targetType: 'product', targetId: before.id, before, after });
    return { ok: true as const, slug: before.slug };
  },
});

export const attachProductImage = defineTool({
  name: 'products.attach_image',
  description: 'Append an https image to a product (no confirmation needed). Attaching a URL the product already has '
    + 'changes nothing and answers alreadyAttached: true.',
  scope: 'products:write',
  annotations: write('Attach product image', { idempotent: true }),
  input: z.strictObject({
    slug: SlugRef.meta({ description: 'The product to add the image to.' }),
    imageUrl: HttpsImageUrl.meta({ description: 'The image URL; must use https, with spaces, quotes and angle brackets percent-encoded.' }),
    alt: z.string().max(200).optional().meta({ description: 'Alternative text for the image, at most 200 characters.' }),
    sourceId: z.string().min(1).max(200).optional().meta({ description: 'Identifier of the image at its source.' }),
  })
    .meta({ examples: [{ slug: 'aviator-classic', imageUrl: 'https://img.example.dk/aviator-classic-side.jpg', alt: 'Aviator Classic set fra siden' }] }),
  output: z.union([
    z.strictObject({ ok: z.literal(true), slug: z.string(), alreadyAttached: z.literal(true), totalImages: PositiveInt }),
    z.strictObject({ ok: z.literal(true), slug: z.string(), attached: z.url(), totalImages: PositiveInt }),
  ]),
  async handler({ slug, imageUrl, alt, sourceId }, ctx) {
    const before = await findProduct(ctx.db, slug, { lock: true });
    await requireVersion(ctx, {
      table: products, id: before.id, readTool: 'products.get', current: () => getProduct.handler({ slug: before.slug }, ctx),
    });
    if (before.images.some((image) => image.url === imageUrl)) {
      return { ok: true as const, slug: before.slug, alreadyAttached: true as const, totalImages: before.images.length };
    }
    const images = [...before.images, { url: imageUrl, ...(alt !== undefined ? { alt } : {}), ...(sourceId ? { sourceId } : {}) }];
    const [after] = await ctx.db.update(products).set({ images, updatedAt: ctx.clock() })
      .where(eq(products.id, before.id)).returning(PRODUCT_COLUMNS);
    await ctx.audit({ targetType: 'product', targetId: before.id, before, after });
    return { ok: true as const, slug: before.slug, attached: imageUrl, totalImages: images.length };
  },
  version: async (_result, { db }, { slug }) => currentVersion(db, products, (await findProduct(db, slug)).id),
});

export const productTools: AnyTool[] = [searchProducts, getProduct, createProduct, updateProduct, deleteProduct, attachProductImage, adjustProductStock];
