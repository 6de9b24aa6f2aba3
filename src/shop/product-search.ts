import { z } from 'zod';
import { money } from '../schema/common.ts';
import type { ProductSummary } from '../schema/product.ts';
import { searchFilters, searchStatements } from './search-query.ts';
import type { BoundFilters, Candidate, SearchFilters, SearchStatements } from './search-query.ts';
import type { ToolContext } from '../context.ts';
import { toProductRecord } from './product-read.ts';
import type { ProductRecord } from './product-read.ts';
import { RELEVANCE_CLASSES, relevanceValues } from './search-relevance.ts';
import { readSettings } from './settings.ts';

const Filter = z.string().min(1).max(200);
const PriceBound = z.int().min(0);

export const SearchInput = z.strictObject({
  q: z.string().max(200).optional().meta({
    description: 'Free text over the name, brand, frame colour, lens colour, category name and description. The catalog '
      + 'is Danish; English shop words (British or American spelling) also match their Danish equivalents: colours '
      + '(black → sort, grey/gray → grå), kinds of product (sunglasses → solbriller, reading glasses → læsebriller, '
      + 'kids → børn), lens properties (polarised/polarized → polariseret). Danish words match their inflections '
      + '(sorte → sort). Filler words (for, with, frame, lenses, colour) are ignored; every other word must match, in '
      + 'any of those fields. Ranking, strongest first: all words whole in the name, then all words as beginnings of '
      + 'name words, then in any of the fields, then near spellings of the name (typos, parts of words); newest first '
      + 'within each rank.',
    examples: ['black polarised sunglasses', 'aviator', 'wayfarer sort'],
  }),
  categorySlug: Filter.optional().meta({ description: 'Exact category slug, case-insensitive.' }),
  brand: Filter.optional().meta({ description: 'Exact brand, case-insensitive.' }),
  frameColor: Filter.optional().meta({
    description: 'Exact frame colour (Danish, as stored), case-insensitive. English colour words alone find every frame '
      + 'colour holding their Danish words: black → "sort" and "mat sort".',
  }),
  lensColor: Filter.optional().meta({
    description: 'Exact lens colour (Danish, as stored), case-insensitive. English colour words alone find every lens colour '
      + 'holding their Danish words: grey → "grå" and "polariseret grå", polarized → "polariseret brun".',
  }),
  featured: z.boolean().optional().meta({ description: 'true: only featured; false: only non-featured.' }),
  inStock: z.boolean().optional().meta({ description: 'true: stock > 0; false: stock = 0.' }),
  minPriceOere: money(PriceBound, 'the lowest price, inclusive.', 50000).optional(),
  maxPriceOere: money(PriceBound, 'the highest price, inclusive.', 150000).optional(),
  limit: z.int().min(1).max(100).default(20).meta({ description: 'Page size, 1..100.' }),
  offset: z.int().min(0).max(10_000).default(0).meta({ description: 'Matching products to skip, 0..10000.' }),
});
export type Search = z.output<typeof SearchInput>;
type Summary = z.output<typeof ProductSummary>;

type Window = { offset: number; limit: number };
/** One class's part of the page; when the page is not full, also how many products the classes so far hold. */
type ClassPage<T> = { rows: T[]; reachSize: number | undefined };
type Bound<T> = { statements: SearchStatements<T>; filters: BoundFilters; values: Record<string, unknown> };

/**
 * The first `wanted` candidates of class k, newest first, flagged when a better class holds them: from the
 * bounded walk when it finds them all, else from the GIN index (see RelevanceClass.window).
 */
async function classCandidates<T>(search: Bound<T>, k: number, wanted: number, walked: boolean): Promise<Candidate[]> {
  const { statements, filters, values } = search;
  const window = RELEVANCE_CLASSES[k]?.window;
  if (window === undefined) return statements.candidates(filters, k).execute({ ...values, limit: wanted });
  if (!walked) {
    const recent = await statements.recentCandidates(filters, k).execute({ ...values, limit: wanted, window: window(wanted) });
    if (recent.length === wanted) return recent;
  }
  return (await statements.allCandidates(filters, k).execute(values)).slice(0, wanted);
}

/**
 * Class k's part of the page. The better classes hold `before` products, all possibly among k's candidates,
 * so the first before + offset + limit candidates contain the page. The first class is tried in one query
 * for the whole page (the common case: a page of products named by the words).
 */
async function classPage<T>(search: Bound<T>, k: number, window: Window & { before: number }): Promise<ClassPage<T>> {
  const { statements, filters, values } = search;
  const relevance = RELEVANCE_CLASSES[k];
  const walked = k === 0 && relevance?.window !== undefined;
  if (walked && relevance?.window) {
    const rows = await statements.recentPage(filters).execute({ ...values, ...window, window: relevance.window(window.offset + window.limit) });
    if (rows.length === window.limit) return { rows, reachSize: undefined };
  }
  const candidates = await classCandidates(search, k, window.before + window.offset + window.limit, walked);
  const fresh = candidates.filter((c) => !c.earlier);
  const ids = fresh.slice(window.offset, window.offset + window.limit).map((c) => c.id);
  const rows = ids.length === 0 ? [] : await statements.byIds().execute({ ids });
  // Short of a full page, every candidate was read (the better classes hold at most `before` of them).
  return { rows, reachSize: rows.length === window.limit ? undefined : window.before + fresh.length };
}

/**
 * Fills one page from the relevance classes, best first; a later class is asked only once the better ones
 * are used up, which bounds how many rows it skips.
 */
async function searchByRelevance<T>(search: Bound<T>, input: Search): Promise<T[]> {
  const found: T[] = [];
  let before = 0;
  for (const k of RELEVANCE_CLASSES.keys()) {
    const window = { offset: Math.max(0, input.offset - before), limit: input.limit - found.length, before };
    const page = await classPage(search, k, window);
    found.push(...page.rows);
    if (found.length === input.limit || page.reachSize === undefined) break;
    before = page.reachSize;
  }
  return found;
}

async function runSearch<T>(db: ToolContext['db'], statements: SearchStatements<T>, input: Search & SearchFilters): Promise<T[]> {
  // The shop's words (settings.searchVocabulary) come from the settings cache: no round trip per search.
  const { searchVocabulary } = await readSettings(db);
  const filters = searchFilters(input, searchVocabulary);
  const relevance = input.q === undefined ? undefined : relevanceValues(input.q, searchVocabulary);
  if (relevance === undefined) {
    return statements.page(filters).execute({ ...filters.values, limit: input.limit, offset: input.offset });
  }
  return searchByRelevance({ statements, filters, values: { ...filters.values, ...relevance } }, input);
}

/**
 * The catalog search, a read model of the shop like the product reads beside it: products.search (tools/products.ts)
 * and UCP's catalog search (ucp/catalog/) both call it, so relevance, the English words and the filters mean the
 * same at every door.
 */
export function searchCatalog(db: ToolContext['db'], input: Search & SearchFilters): Promise<Summary[]> {
  return runSearch(db, searchStatements(db, 'summary'), input);
}

/**
 * The same search answering with whole product records (product-read.ts), read by the search's own
 * statements: a face that shapes more of each product than the summary (UCP's catalog search) needs no
 * second read of the page.
 */
export async function searchCatalogRecords(db: ToolContext['db'], input: Search & SearchFilters): Promise<ProductRecord[]> {
  return (await runSearch(db, searchStatements(db, 'record'), input)).map(toProductRecord);
}
