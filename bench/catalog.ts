import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';

/** The repository root: bench/ sits directly below it. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The shared, deterministic eyewear catalog lives beside the repository (issue #7): the same product(i)
 * is loaded into every system the benchmark compares, so it is read at run time, never copied.
 */
export const CATALOG_PATH = resolve(REPO_ROOT, '..', 'shared', 'bench', 'catalog.mjs');

/** The search terms and page size the shared catalog's header names for comparisons. */
export const SEARCH_TERMS = ['aviator', 'polariseret', 'lindberg', 'solbriller', 'wayfarer sort', 'skagen', 'titanium', 'havana'];
export const PAGE_SIZE = 20;

const CatalogCategory = z.object({ slug: z.string(), name: z.string(), en: z.string(), share: z.number() });
export type CatalogCategory = z.infer<typeof CatalogCategory>;

export const CatalogProduct = z.object({
  slug: z.string(),
  name: z.string(),
  brand: z.string(),
  description: z.string(),
  priceDkk: z.int().positive(),
  stock: z.int().min(0),
  featured: z.boolean(),
  frameColor: z.string(),
  lensColor: z.string().nullable(),
  categorySlug: z.string(),
  sku: z.string(),
  createdAt: z.iso.datetime(),
});
export type CatalogProduct = z.infer<typeof CatalogProduct>;

const CatalogModule = z.object({
  CATEGORIES: z.array(CatalogCategory).min(1),
  BRANDS: z.array(z.string()).min(1),
  FRAME_COLORS: z.array(z.tuple([z.string(), z.string()])).min(1),
  LENS_COLORS: z.array(z.tuple([z.string(), z.string()])).min(1),
  product: z.function({ input: [z.int().min(0)], output: CatalogProduct }),
});

export type Catalog = {
  categories: CatalogCategory[];
  brands: string[];
  frameColors: string[];
  lensColors: string[];
  /** The i-th product (0-based), checked against the shape the seeder relies on. */
  product(i: number): CatalogProduct;
};

export async function loadCatalog(path = CATALOG_PATH): Promise<Catalog> {
  const loaded: unknown = await import(pathToFileURL(path).href).catch((error: unknown) => {
    throw new Error(`cannot load the shared catalog at ${path}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const module = CatalogModule.parse(loaded);
  return {
    categories: module.CATEGORIES,
    brands: module.BRANDS,
    frameColors: module.FRAME_COLORS.map(([danish]) => danish),
    lensColors: module.LENS_COLORS.map(([danish]) => danish),
    product: module.product,
  };
}
