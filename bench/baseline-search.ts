import type pg from 'pg';
import { EYEWEAR_VOCABULARY } from '../src/seed/search-vocabulary.ts';
import { colourWords, relevanceValues } from '../src/shop/search-relevance.ts';

/**
 * products.search for the baseline server, by hand: the statements Butik's Drizzle queries send
 * (src/shop/search-query.ts, src/shop/search-relevance.ts), the same relevance classes and paging, and
 * no framework. Before timing, the bench checks that both servers answer every scenario request identically.
 */
type Param = (value: unknown) => string;
/** A piece of SQL that numbers its parameters as it is written. */
type Fragment = (p: Param) => string;
type Summary = Record<string, unknown>;

const SUMMARY = `select products.id, products.slug, products.name, products.brand, products.price_dkk as "priceDkk",
  products.stock, products.featured, products.frame_color as "frameColor", products.lens_color as "lensColor",
  categories.slug as "categorySlug", categories.name as "categoryName", products.images->0->>'url' as "firstImage"
  from products inner join categories on categories.id = products.category_id`;
const NEWEST = 'order by products.created_at desc, products.id desc';

const text = (input: object, key: string) => { const v: unknown = Reflect.get(input, key); return typeof v === 'string' ? v : undefined; };
const integer = (input: object, key: string) => { const v: unknown = Reflect.get(input, key); return typeof v === 'number' ? v : undefined; };
const flag = (input: object, key: string) => { const v: unknown = Reflect.get(input, key); return typeof v === 'boolean' ? v : undefined; };

/** The filters, in the order Butik adds them. */
function filters(input: object): Fragment[] {
  const where: Fragment[] = [() => 'products.deleted_at is null'];
  const category = text(input, 'categorySlug');
  if (category !== undefined) where.push((p) => `products.category_id = (select categories.id from categories where categories.slug = lower(${p(category)}))`);
  const brand = text(input, 'brand');
  if (brand !== undefined) where.push((p) => `lower(products.brand) = lower(${p(brand)})`);
  for (const [key, column] of [['frameColor', 'products.frame_color'], ['lensColor', 'products.lens_color']] as const) {
    const colour = text(input, key);
    if (colour === undefined) continue;
    const english = colourWords(colour, EYEWEAR_VOCABULARY);
    if (english === undefined) where.push((p) => `lower(${column}) = lower(${p(colour)})`);
    else where.push((p) => `to_tsvector('simple', translate(coalesce(${column}, ''), '/\\.@:_+', '       ')) @@ to_tsquery('simple', ${p(english)})`);
  }
  const featured = flag(input, 'featured');
  if (featured !== undefined) where.push((p) => `products.featured = ${p(featured)}`);
  const inStock = flag(input, 'inStock');
  if (inStock === true) where.push(() => 'products.stock > 0');
  if (inStock === false) where.push((p) => `products.stock = ${p(0)}`);
  const min = integer(input, 'minPriceOere');
  if (min !== undefined) where.push((p) => `products.price_dkk >= ${p(min)}`);
  const max = integer(input, 'maxPriceOere');
  if (max !== undefined) where.push((p) => `products.price_dkk <= ${p(max)}`);
  return where;
}

type Columns = { nameVector: string; searchVector: string; name: string };
/** As in src/shop/search-relevance.ts: a bounded walk first for the text classes, the planner for the trigram one. */
type Class = { candidates: Fragment; earlier: Fragment | undefined; window: ((wanted: number) => number) | undefined };

const indexWalk = (wanted: number) => 5_000 + 50 * wanted;
const tableWalk = (wanted: number) => 1_000 + 10 * wanted;

function relevanceClasses(q: string, c: Columns): Class[] {
  // The query text (words, their Danish equivalents, prefixes) is Butik's own pure function: what is compared is
  // the serving of the same SQL, not two spellings of a dictionary.
  // The bench shop stores the eyewear vocabulary (seed-catalog.ts); the baseline reads it as a constant.
  const values = relevanceValues(q, EYEWEAR_VOCABULARY);
  if (!values) return [];
  const nameWords: Fragment = (p) => `${c.nameVector} @@ to_tsquery('simple', ${p(values.words)})`;
  const nameStarts: Fragment = (p) => `${c.nameVector} @@ to_tsquery('danish', ${p(values.prefixes)})`;
  const textStarts: Fragment = (p) => `${c.searchVector} @@ to_tsquery('danish', ${p(values.prefixes)})`;
  const resembles: Fragment = (p) => `lower(${p(values.needle)}) <% lower(${c.name})`;
  return [
    { candidates: nameWords, earlier: undefined, window: indexWalk },
    { candidates: nameStarts, earlier: nameWords, window: indexWalk },
    { candidates: textStarts, earlier: nameStarts, window: tableWalk },
    { candidates: resembles, earlier: textStarts, window: undefined },
  ];
}

const TABLE: Columns = { nameVector: 'products.name_vector', searchVector: 'products.search_vector', name: 'products.name' };
const RECENT: Columns = { nameVector: 'recent.name_vector', searchVector: 'recent.search_vector', name: 'recent.name' };

async function query<T extends pg.QueryResultRow>(pool: pg.Pool, build: Fragment): Promise<T[]> {
  const params: unknown[] = [];
  const sql = build((value) => `$${params.push(value)}`);
  return (await pool.query<T>(sql, params)).rows;
}

const and = (fragments: Fragment[], p: Param) => fragments.map((fragment) => fragment(p)).join(' and ');

/** A page chosen by ids first, as Butik's summaryPage does. */
const page = (where: Fragment[], p: Param, limit: number, offset: number) =>
  `${SUMMARY} where products.id in (select products.id from products where ${and(where, p)} ${NEWEST} limit ${p(limit)} offset ${p(offset)}) ${NEWEST}`;

type Candidate = { id: string; earlier: boolean };

const newestWindow = (where: Fragment[], p: Param, size: number) =>
  `(select products.id, products.created_at, products.name, products.name_vector, products.search_vector from products `
  + `where ${and(where, p)} ${NEWEST} limit ${p(size)}) recent`;
const earlierFlag = (earlier: Fragment | undefined, p: Param) => (earlier ? earlier(p) : 'false');

export async function baselineSearch(pool: pg.Pool, input: object): Promise<Summary[]> {
  const limit = integer(input, 'limit') ?? 20;
  const offset = integer(input, 'offset') ?? 0;
  const where = filters(input);
  const q = text(input, 'q');
  const classes = q === undefined ? [] : relevanceClasses(q, TABLE);
  const recentClasses = q === undefined ? [] : relevanceClasses(q, RECENT);
  if (classes.length === 0) return query(pool, (p) => page(where, p, limit, offset));
  const found: Summary[] = [];
  let before = 0;
  for (const [k, { candidates, earlier, window }] of classes.entries()) {
    const recent = recentClasses[k];
    if (!recent) break;
    const skip = Math.max(0, offset - before);
    const need = limit - found.length;
    const wanted = before + skip + need;
    const walked = k === 0 && window !== undefined;
    if (walked) {
      const rows = await query<Summary>(pool, (p) => `${SUMMARY} where products.id in (select recent.id from ${newestWindow(where, p, window(skip + need))} `
        + `where ${recent.candidates(p)} order by recent.created_at desc, recent.id desc limit ${p(need)} offset ${p(skip)}) ${NEWEST}`);
      if (rows.length === need) { found.push(...rows); break; }
    }
    let listed: Candidate[] | undefined;
    if (window === undefined) {
      listed = await query<Candidate>(pool, (p) =>
        `select products.id, ${earlierFlag(earlier, p)} as earlier from products where ${and([...where, candidates], p)} ${NEWEST} limit ${p(wanted)}`);
    } else if (!walked) {
      const inWindow = await query<Candidate>(pool, (p) =>
        `select recent.id, ${earlierFlag(recent.earlier, p)} as earlier from ${newestWindow(where, p, window(wanted))} where ${recent.candidates(p)} `
        + `order by recent.created_at desc, recent.id desc limit ${p(wanted)}`);
      if (inWindow.length === wanted) listed = inWindow;
    }
    listed ??= (await query<Candidate>(pool, (p) =>
      `select products.id, ${earlierFlag(earlier, p)} as earlier from products where ${and([...where, candidates], p)} ${NEWEST}`)).slice(0, wanted);
    const later = listed.filter((row) => !row.earlier);
    const ids = later.slice(skip, skip + need).map((row) => row.id);
    if (ids.length > 0) {
      found.push(...await query<Summary>(pool, (p) => `${SUMMARY} where products.id = any(${p(ids)}::text[]) ${NEWEST}`));
    }
    if (found.length === limit) break;
    before += later.length;
  }
  return found;
}
