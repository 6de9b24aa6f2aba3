import { z } from 'zod';
import { Id, ImageUrl, NonNegativeInt, PositiveInt, Slug, money } from './common.ts';

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** The product write rules of docs/behaviour.md#products; shared by products.create and products.update's patch. */
export const ProductFields = {
  name: z.string().min(2).max(200).meta({ description: 'Display name.', examples: ['Aviator Classic'] }),
  description: z.string().min(10).max(20_000).meta({ description: 'Product description, at least 10 characters.' }),
  priceDkk: money(PositiveInt, 'the price, VAT included, not kroner. Under 100 (1 kr) is accepted with a warning.'),
  stock: NonNegativeInt.meta({ description: 'Units in stock.' }),
  brand: z.string().min(1).max(200).meta({ description: 'Brand name; products.search filters on it exactly.', examples: ['Ray-Ban'] }),
  frameColor: z.string().min(1).max(100).meta({ description: 'Frame colour in Danish, as the catalog writes it.', examples: ['sort'] }),
  lensColor: z.string().min(1).max(100).meta({ description: 'Lens colour in Danish, as the catalog writes it.', examples: ['grøn'] }),
  featured: z.boolean().meta({ description: 'Shown as featured; default false.' }),
  images: z.array(ImageUrl).max(50).meta({ description: 'Image URLs: absolute http or https, spaces, quotes and angle brackets percent-encoded.' }),
  attributes: z.record(z.string().min(1).max(100), z.union([Scalar, z.array(Scalar)])).meta({
    description: 'Free-form attributes: string keys to a string, number, boolean or an array of those.',
  }),
  answerSummary: z.string().max(500).meta({ description: 'Short answer-engine summary, at most 500 characters.' }),
  faq: z.array(z.strictObject({
    q: z.string().min(1).max(1000).meta({ description: 'The question, as a customer would ask it.' }),
    a: z.string().min(1).max(5000).meta({ description: 'The answer.' }),
  })).max(50).meta({ description: 'Frequently asked questions about the product, at most 50.' }),
  useCases: z.array(z.strictObject({
    title: z.string().min(1).max(200).meta({ description: 'Short name of the use, e.g. "Bilkørsel".' }),
    description: z.string().min(1).max(2000).meta({ description: 'How the product serves it.' }),
  })).max(50).meta({ description: 'What the product is good for, at most 50.' }),
  comparisonFacts: z.record(z.string().min(1).max(200), z.string().max(2000)).meta({
    description: 'Facts for comparisons, name to value, e.g. {"Vægt": "28 g"}.',
  }),
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
  priceDkk: money(z.int(), 'the price, VAT included.'),
  stock: z.int(),
  featured: z.boolean(),
  frameColor: z.string().nullable(),
  lensColor: z.string().nullable(),
  categorySlug: z.string(),
  categoryName: z.string(),
  firstImage: z.string().nullable(),
});

export const ProductRef = z.strictObject({ id: Id, slug: Slug });
