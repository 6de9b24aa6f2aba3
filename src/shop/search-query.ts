import { and, desc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { SQL, SQLWrapper } from 'drizzle-orm';
import type { z } from 'zod';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { categories, products } from '../db/schema.ts';
import { PRODUCT_FIELDS } from '../shop/product-read.ts';
import type { ProductRecordRow } from '../shop/product-read.ts';
import type { ProductSummary } from '../schema/product.ts';
import type { ToolContext } from '../context.ts';
import { colourWords, RELEVANCE_CLASSES, relevanceClasses } from './search-relevance.ts';
import type { SearchVocabulary } from './search-vocabulary.ts';
import type { RelevanceClass } from './search-relevance.ts';

/**
 * The statements of products.search; bench/baseline-search.ts sends the same ones. Each is built once per
 * shape (which filters, which relevance class) with placeholders for the values, so a request only binds
 * values: building the SQL is a large share of a search's CPU. The server statement stays unnamed, i.e.
 * planned for every request's own values: a generic plan cannot know whether a word is in 40 % of the catalog
 * (walk the newest-first index) or in 0.1 % (use the GIN index).
 */
type Db = ToolContext['db'];
type Values = Record<string, unknown>;

/** The empty name is the wire protocol's unnamed statement: parsed and planned with each request's values. */
const UNNAMED = '';

/** What the filters of products.search read; SearchInput's output satisfies it. */
export type SearchFilters = {
  categorySlug?: string | undefined;
  /** Any of these category slugs (UCP's category filter); not an input of products.search itself. */
  categorySlugs?: readonly string[] | undefined;
  brand?: string | undefined;
  frameColor?: string | undefined;
  lensColor?: string | undefined;
  featured?: boolean | undefined;
  inStock?: boolean | undefined;
  minPriceOere?: number | undefined;
  maxPriceOere?: number | undefined;
};

/** Filter conditions with placeholders, a key naming their shape, and the values to bind. */
export type BoundFilters = { shape: string; where: SQL[]; values: Values };

const p = sql.placeholder;

/**
 * The colour holds the words of the tsquery (an English colour filter, see colourWords). Separators as in the
 * search vectors, so "sort/hvid" holds "sort". Served by the newest-first walk, which stops at the page: an
 * English colour stands for a common one.
 */
const colourHolds = (column: SQLWrapper, words: SQLWrapper) =>
  sql`to_tsvector('simple', translate(coalesce(${column}, ''), '/\\.@:_+', '       ')) @@ to_tsquery('simple', ${words})`;

/**
 * Each filter written so that one of the (filter, created_at DESC, id DESC) indexes can serve it together with
 * the stable sort. Exact and case-insensitive; price bounds inclusive. A colour given in English
 * instead finds every colour that holds its Danish word (colourWords).
 */
export function searchFilters(input: SearchFilters, vocabulary: SearchVocabulary): BoundFilters {
  const where: SQL[] = [isNull(products.deletedAt)];
  const shape: string[] = [];
  const values: Values = {};
  const add = (name: string, condition: SQL, value?: unknown) => {
    where.push(condition);
    shape.push(name);
    if (value !== undefined) values[name] = value;
  };
  // A scalar subquery, not a join condition: the planner then walks products_category_idx in sort order.
  if (input.categorySlug !== undefined) {
    add('categorySlug', sql`${products.categoryId} = (select ${categories.id} from ${categories} where ${categories.slug} = lower(${p('categorySlug')}))`, input.categorySlug);
  }
  if (input.categorySlugs !== undefined) {
    add('categorySlugs', sql`${products.categoryId} in (select ${categories.id} from ${categories} where ${categories.slug} = any(${p('categorySlugs')}::text[]))`,
      input.categorySlugs.map((slug) => slug.toLowerCase()));
  }
  if (input.brand !== undefined) add('brand', sql`lower(${products.brand}) = lower(${p('brand')})`, input.brand);
  for (const [name, column] of [['frameColor', products.frameColor], ['lensColor', products.lensColor]] as const) {
    const value = input[name];
    if (value === undefined) continue;
    const english = colourWords(value, vocabulary);
    if (english === undefined) add(name, sql`lower(${column}) = lower(${p(name)})`, value);
    else add(`${name}Words`, colourHolds(column, p(`${name}Words`)), english);
  }
  if (input.featured !== undefined) add('featured', eq(products.featured, p('featured')), input.featured);
  if (input.inStock === true) add('inStock', sql`${products.stock} > 0`);
  if (input.inStock === false) add('outOfStock', eq(products.stock, p('outOfStock')), 0);
  if (input.minPriceOere !== undefined) add('minPriceOere', gte(products.priceDkk, p('minPriceOere')), input.minPriceOere);
  if (input.maxPriceOere !== undefined) add('maxPriceOere', lte(products.priceDkk, p('maxPriceOere')), input.maxPriceOere);
  return { shape: shape.join(','), where, values };
}

const SUMMARY = {
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
};
const NEWEST = [desc(products.createdAt), desc(products.id)];

/**
 * What a search reads of each product it finds: products.search's summary, or the shared product record
 * (shop/product-read.ts), from which UCP's catalog search shapes its larger product in the same statement
 * instead of reading the page again.
 */
const READINGS = { summary: SUMMARY, record: PRODUCT_FIELDS } satisfies Record<string, SelectedFields>;
export type Reading = keyof typeof READINGS;
/** The row each reading's statements answer with. */
type ReadingRow = { summary: z.output<typeof ProductSummary>; record: ProductRecordRow };

function rowsWhere(db: Db, columns: SelectedFields, condition: SQL) {
  return db.select(columns).from(products).innerJoin(categories, eq(categories.id, products.categoryId))
    .where(condition).orderBy(...NEWEST);
}

/**
 * One page of the products matching every condition, newest first, ties by id: products.search without q.
 * The page is chosen by ids first (an index-only scan where the conditions allow), so only the page's own
 * wide rows are read. Placeholders: limit, offset.
 */
export function pageQuery(db: Db, where: SQL[], columns: SelectedFields = SUMMARY) {
  const page = db.select({ id: products.id }).from(products).where(and(...where)).orderBy(...NEWEST)
    .limit(p('limit')).offset(p('offset'));
  return rowsWhere(db, columns, inArray(products.id, page));
}

/** The products whose ids are bound to `ids`, newest first. */
function byIdsQuery(db: Db, columns: SelectedFields) {
  return rowsWhere(db, columns, sql`${products.id} = any(${p('ids')}::text[])`);
}

/** The newest `window` products that pass the filters, with what the relevance classes read. */
function newestWindow(db: Db, where: SQL[]) {
  return db.select({
    id: products.id, createdAt: products.createdAt, name: products.name, nameVector: products.nameVector,
    searchVector: products.searchVector,
  }).from(products).where(and(...where)).orderBy(...NEWEST).limit(p('window')).as('recent');
}

function relevanceOf(k: number, classes: readonly RelevanceClass[] = RELEVANCE_CLASSES): RelevanceClass {
  const relevance = classes[k];
  if (relevance === undefined) throw new Error(`no relevance class ${k}`);
  return relevance;
}

/**
 * The first class's page among the `window` newest products that pass the filters: a walk of the
 * newest-first index (index only: the class reads name_vector) that stops at the page and never goes past
 * the window. A full page is the answer; otherwise allCandidatesQuery decides. Placeholders: window, limit, offset.
 */
export function recentPageQuery(db: Db, where: SQL[], columns: SelectedFields = SUMMARY) {
  const recent = newestWindow(db, where);
  const page = db.select({ id: recent.id }).from(recent).where(relevanceOf(0, relevanceClasses(recent)).candidates)
    .orderBy(desc(recent.createdAt), desc(recent.id)).limit(p('limit')).offset(p('offset'));
  return rowsWhere(db, columns, inArray(products.id, page));
}

/** Flags a candidate that a better class already holds; never, for the first class. */
const earlierFlag = (relevance: RelevanceClass) => sql<boolean>`${relevance.earlier ?? sql`false`}`;

/**
 * A later class's candidates among the `window` newest filtered products, newest first, flagged when a
 * better class holds them; stops at `limit`. Placeholders: window, limit.
 */
export function recentCandidatesQuery(db: Db, where: SQL[], k: number) {
  const recent = newestWindow(db, where);
  const relevance = relevanceOf(k, relevanceClasses(recent));
  return db.select({ id: recent.id, earlier: earlierFlag(relevance) })
    .from(recent).where(relevance.candidates).orderBy(desc(recent.createdAt), desc(recent.id)).limit(p('limit'));
}

/**
 * Every candidate of a class, newest first, when the window did not hold enough. With no LIMIT the planner has
 * no reason to walk the newest-first index; it looks the words up in the GIN index. Few rows by then: the
 * candidates were rare among the newest products.
 */
export function allCandidatesQuery(db: Db, where: SQL[], k: number) {
  const relevance = relevanceOf(k);
  return db.select({ id: products.id, earlier: earlierFlag(relevance) })
    .from(products).where(and(...where, relevance.candidates)).orderBy(...NEWEST);
}

/**
 * A later class's first `limit` candidates, newest first, flagged when a better class holds them: for a class
 * whose condition the planner estimates well, a query of its own, costed from that condition. Placeholder: limit.
 */
export function candidatesQuery(db: Db, where: SQL[], k: number) {
  const relevance = relevanceOf(k);
  return db.select({ id: products.id, earlier: earlierFlag(relevance) })
    .from(products).where(and(...where, relevance.candidates)).orderBy(...NEWEST).limit(p('limit'));
}

const prepare = (db: Db, columns: SelectedFields) => ({
  page: (where: SQL[]) => pageQuery(db, where, columns).prepare(UNNAMED),
  byIds: () => byIdsQuery(db, columns).prepare(UNNAMED),
  recentPage: (where: SQL[]) => recentPageQuery(db, where, columns).prepare(UNNAMED),
  recentCandidates: (where: SQL[], k: number) => recentCandidatesQuery(db, where, k).prepare(UNNAMED),
  allCandidates: (where: SQL[], k: number) => allCandidatesQuery(db, where, k).prepare(UNNAMED),
  candidates: (where: SQL[], k: number) => candidatesQuery(db, where, k).prepare(UNNAMED),
});

type Statement<T> = { execute(values: Values): Promise<T[]> };
/** A candidate of a relevance class, flagged when a better class holds it. */
export type Candidate = { id: string; earlier: boolean };
/** The statements one search runs, whose pages are rows of T. */
export type SearchStatements<T> = {
  page(filters: BoundFilters): Statement<T>;
  byIds(): Statement<T>;
  recentPage(filters: BoundFilters): Statement<T>;
  recentCandidates(filters: BoundFilters, k: number): Statement<Candidate>;
  allCandidates(filters: BoundFilters, k: number): Statement<Candidate>;
  candidates(filters: BoundFilters, k: number): Statement<Candidate>;
};

function memo<T>(store: Map<string, T>, key: string, build: () => T): T {
  let statement = store.get(key);
  if (statement === undefined) {
    statement = build();
    store.set(key, statement);
  }
  return statement;
}

/**
 * The search statements answering with `columns`, each prepared on first use for its shape: the filters present
 * and the relevance class k (RELEVANCE_CLASSES).
 */
function buildStatements(db: Db, columns: SelectedFields) {
  const build = prepare(db, columns);
  const cache = {
    page: new Map<string, ReturnType<typeof build.page>>(),
    byIds: new Map<string, ReturnType<typeof build.byIds>>(),
    recentPage: new Map<string, ReturnType<typeof build.recentPage>>(),
    recentCandidates: new Map<string, ReturnType<typeof build.recentCandidates>>(),
    allCandidates: new Map<string, ReturnType<typeof build.allCandidates>>(),
    candidates: new Map<string, ReturnType<typeof build.candidates>>(),
  };
  return {
    page: (filters: BoundFilters) => memo(cache.page, filters.shape, () => build.page(filters.where)),
    byIds: () => memo(cache.byIds, '', () => build.byIds()),
    recentPage: (filters: BoundFilters) => memo(cache.recentPage, filters.shape, () => build.recentPage(filters.where)),
    recentCandidates: (filters: BoundFilters, k: number) =>
      memo(cache.recentCandidates, `${filters.shape}|${k}`, () => build.recentCandidates(filters.where, k)),
    allCandidates: (filters: BoundFilters, k: number) =>
      memo(cache.allCandidates, `${filters.shape}|${k}`, () => build.allCandidates(filters.where, k)),
    candidates: (filters: BoundFilters, k: number) =>
      memo(cache.candidates, `${filters.shape}|${k}`, () => build.candidates(filters.where, k)),
  };
}

const statements = new WeakMap<Db, Map<Reading, unknown>>();

/** The search statements of one database handle that answer with `reading`'s columns. */
export function searchStatements<R extends Reading>(db: Db, reading: R): SearchStatements<ReadingRow[R]> {
  let readings = statements.get(db);
  if (readings === undefined) {
    readings = new Map();
    statements.set(db, readings);
  }
  let held = readings.get(reading);
  if (held === undefined) {
    held = buildStatements(db, READINGS[reading]);
    readings.set(reading, held);
  }
  // Each reading's entry is what buildStatements made for that reading's columns, whose rows are ReadingRow's.
  return held as SearchStatements<ReadingRow[R]>;
}
