import { fileURLToPath } from 'node:url';
import { BRANDS, CATEGORIES, FRAME_COLORS, LENS_COLORS, product } from './eyewear-catalog.ts';
import type { CatalogCategory, CatalogProduct } from './eyewear-catalog.ts';

export type { CatalogCategory, CatalogProduct };

/** The repository root: bench/ sits directly below it. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The search terms and page size the catalog's comparisons use. */
export const SEARCH_TERMS = ['aviator', 'polariseret', 'lindberg', 'solbriller', 'wayfarer sort', 'skagen', 'titanium', 'havana'];
export const PAGE_SIZE = 20;

export type Catalog = {
  categories: readonly CatalogCategory[];
  brands: readonly string[];
  frameColors: readonly string[];
  lensColors: readonly string[];
  /** The i-th product (0-based). */
  product(i: number): CatalogProduct;
};

/** The eyewear catalog the benchmarks load (bench/eyewear-catalog.ts), with its filter values in Danish. */
export const CATALOG: Catalog = {
  categories: CATEGORIES,
  brands: BRANDS,
  frameColors: FRAME_COLORS.map(([danish]) => danish),
  lensColors: LENS_COLORS.map(([danish]) => danish),
  product,
};
