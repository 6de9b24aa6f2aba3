import { z } from 'zod';
import { Id, NonNegativeInt, PositiveInt, Slug, Url } from './common.ts';

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** SPEC §2.1 write rules; shared by products.create and products.update's patch. */
export const ProductFields = {
  name: z.string().min(2).max(200).meta({ description: 'Display name.', examples: ['Aviator Classic'] }),
  description: z.string().min(10).max(20_000).meta({ description: 'Product description, at least 10 characters.' }),
  priceDkk: PositiveInt.meta({ description: 'Price in øre (1/100 DKK) incl. VAT, not kroner: 149900 is 1.499,00 kr.' }),
  stock: NonNegativeInt.meta({ description: 'Units in stock.' }),
  brand: z.string().min(1).max(200),
  frameColor: z.string().min(1).max(100),
  lensColor: z.string().min(1).max(100),
  featured: z.boolean().meta({ description: 'Shown as featured; default false.' }),
  images: z.array(Url).max(50).meta({ description: 'Image URLs (http or https).' }),
  attributes: z.record(z.string().min(1).max(100), z.union([Scalar, z.array(Scalar)])).meta({
    description: 'Free-form attributes: string keys to a string, number, boolean or an array of those.',
  }),
  answerSummary: z.string().max(500).meta({ description: 'Short answer-engine summary, at most 500 characters.' }),
  faq: z.array(z.strictObject({ q: z.string().min(1).max(1000), a: z.string().min(1).max(5000) })).max(50),
  useCases: z.array(z.strictObject({
    title: z.string().min(1).max(200),
    description: z.string().min(1).max(2000),
  })).max(50),
  comparisonFacts: z.record(z.string().min(1).max(200), z.string().max(2000)),
  categoryId: Id.meta({ description: 'Category by id. Give exactly one of categoryId and categorySlug.' }),
  categorySlug: z.string().min(1).max(200).meta({
    description: 'Category by slug. Give exactly one of categoryId and categorySlug.',
  }),
};

export const ProductSummary = z.strictObject({
  id: Id,
  slug: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  priceDkk: z.int().meta({ description: 'Price in øre incl. VAT.' }),
  stock: z.int(),
  featured: z.boolean(),
  frameColor: z.string().nullable(),
  lensColor: z.string().nullable(),
  categorySlug: z.string(),
  categoryName: z.string(),
  firstImage: z.string().nullable(),
});

export const ProductRef = z.strictObject({ id: Id, slug: Slug });
