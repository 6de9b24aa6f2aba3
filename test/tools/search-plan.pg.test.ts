import { fillPlaceholders, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { categories, products } from '../../src/db/schema.ts';
import { allCandidatesQuery, candidatesQuery, pageQuery, recentCandidatesQuery, recentPageQuery, searchFilters } from '../../src/shop/search-query.ts';
import { relevanceValues } from '../../src/shop/search-relevance.ts';
import { EMPTY_VOCABULARY } from '../../src/shop/search-vocabulary.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

/**
 * products.search on enough rows that PostgreSQL's planner prefers indexes: EXPLAIN shows which ones the
 * statements use (PostgreSQL only: PGlite is the same engine, but these are the plans production runs), and the
 * same searches return the same pages on both databases.
 */
const ROWS = 6000;
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;

const BRANDS = ['Ray-Ban', 'Oakley', 'Lindberg', 'Ørgreen', 'Persol', 'Prada', 'Carrera', 'Julbo', 'Komono', 'Quay'];
const STYLES = ['Aviator', 'Wayfarer', 'Clubmaster', 'Round', 'Cat-Eye', 'Pilot', 'Browline', 'Panto'];
const FRAMES = ['sort', 'guld', 'sølv', 'havana', 'grøn', 'blå', 'hvid', 'rød'];
const CATEGORIES = [{ slug: 'solbriller', name: 'Solbriller' }, { slug: 'briller', name: 'Briller' }, { slug: 'skibriller', name: 'Skibriller' }];

type Row = { i: number; id: string; name: string; description: string; brand: string; frame: string; category: number };

/** Deterministic rows; a larger i is newer. Every 1000th name has a rare word, every 7th description "titanium". */
function row(i: number): Row {
  const brand = BRANDS[i % BRANDS.length] ?? 'Quay';
  const style = STYLES[Math.floor(i / 3) % STYLES.length] ?? 'Round';
  const frame = FRAMES[Math.floor(i / 7) % FRAMES.length] ?? 'sort';
  const category = i % 10 < 5 ? 0 : i % 10 < 9 ? 1 : 2;
  const rare = i % 1000 === 0 ? ' Kalejdoskop' : '';
  const name = `${brand} ${style}${rare} ${CATEGORIES[category]?.name.toLowerCase()} M${i} – ${frame}/grå`;
  const material = i % 7 === 0 ? 'titanium' : 'acetat';
  const special = i % 2000 === 1 ? ' Håndlavet på Møn.' : '';
  return {
    i, id: `p-${String(i).padStart(6, '0')}`, name, brand, frame, category,
    description: `${style} fra ${brand} med ${frame} stel i ${material}.${special}`,
  };
}
const ROWS_DATA = Array.from({ length: ROWS }, (_, i) => row(i));
const newestFirst = (rows: Row[]) => [...rows].sort((a, b) => b.i - a.i).map((r) => r.id);
const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const categoryIds = await Promise.all(CATEGORIES.map(async (c) => {
    const [inserted] = await db.insert(categories).values({ slug: c.slug, name: c.name }).returning({ id: categories.id });
    return inserted?.id ?? '';
  }));
  for (let from = 0; from < ROWS; from += 1000) {
    await db.insert(products).values(ROWS_DATA.slice(from, from + 1000).map((r) => ({
      id: r.id, slug: `m-${r.i}`, name: r.name, description: r.description, brand: r.brand, priceDkk: 50_000 + (r.i % 50) * 1000,
      stock: r.i % 10, frameColor: r.frame, lensColor: 'grå', categoryId: categoryIds[r.category] ?? '',
      images: [{ url: `https://img.test/${r.i}.jpg` }], createdAt: new Date(Date.UTC(2025, 0, 1) + r.i * 60_000),
    })));
  }
  // Moves the GIN indexes' pending entries into the trees (as autovacuum would) and gathers statistics.
  await db.execute(sql`vacuum analyze products`);
}, 120_000);
afterAll(async () => { await t?.close(); });

async function search(body: Record<string, unknown>): Promise<string[]> {
  const response = await t.call('products.search', body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result.map((p: { id: string }) => p.id);
}

describe('search results, the same on PGlite and PostgreSQL', () => {
  it('finds a rare name word, newest first', async () => {
    expect(await search({ q: 'kalejdoskop' })).toEqual(newestFirst(ROWS_DATA.filter((r) => r.name.includes('Kalejdoskop'))));
  });

  it('finds a near spelling of a name word when nothing matches exactly', async () => {
    expect(await search({ q: 'kalejdoskp' })).toEqual(newestFirst(ROWS_DATA.filter((r) => r.name.includes('Kalejdoskop'))));
  });

  it('pages through a word of the description, newest first', async () => {
    const titanium = newestFirst(ROWS_DATA.filter((r) => r.description.includes('titanium')));
    expect(await search({ q: 'titanium', limit: 20 })).toEqual(titanium.slice(0, 20));
    expect(await search({ q: 'titanium', limit: 20, offset: 500 })).toEqual(titanium.slice(500, 520));
  });

  it('matches Danish letters in names and descriptions', async () => {
    const silver = newestFirst(ROWS_DATA.filter((r) => words(r.name).includes('sølv')));
    expect(await search({ q: 'sølv', limit: 50 })).toEqual(silver.slice(0, 50));
    expect(await search({ q: 'GRØN', limit: 10 })).toEqual(newestFirst(ROWS_DATA.filter((r) => r.frame === 'grøn')).slice(0, 10));
    expect(await search({ q: 'møn' })).toEqual(newestFirst(ROWS_DATA.filter((r) => r.description.includes('Møn'))));
  });

  it('combines a filter with the stable sort', async () => {
    const orgreen = newestFirst(ROWS_DATA.filter((r) => r.brand === 'Ørgreen'));
    expect(await search({ brand: 'ØRGREEN', limit: 30, offset: 30 })).toEqual(orgreen.slice(30, 60));
    const skiSilver = newestFirst(ROWS_DATA.filter((r) => r.category === 2 && r.frame === 'sølv'));
    expect(await search({ categorySlug: 'skibriller', frameColor: 'Sølv', limit: 100 })).toEqual(skiSilver.slice(0, 100));
  });
});

type PlanNode = { 'Node Type': string; 'Index Name'?: string | undefined; 'Relation Name'?: string | undefined; Plans?: PlanNode[] | undefined };
const PlanNode: z.ZodType<PlanNode> = z.lazy(() => z.object({
  'Node Type': z.string(),
  'Index Name': z.string().optional(),
  'Relation Name': z.string().optional(),
  Plans: z.array(PlanNode).optional(),
}));
const Explained = z.object({ rows: z.tuple([z.object({ 'QUERY PLAN': z.tuple([z.object({ Plan: PlanNode })]) })]) });

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** EXPLAIN of a search statement with its placeholders bound, as the tool sends it. */
async function explain(query: { toSQL(): { sql: string; params: unknown[] } }, values: Record<string, unknown>): Promise<PlanNode[]> {
  const { sql: text, params } = query.toSQL();
  const bound = fillPlaceholders(params, values);
  const chunks: SQL[] = [sql.raw('explain (format json) ')];
  text.split(/\$(\d+)/).forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${bound[Number(part) - 1]}`));
  const explained = Explained.parse(await t.database.db.execute(sql.join(chunks)));
  return nodes(explained.rows[0]['QUERY PLAN'][0].Plan);
}

const indexes = (plan: PlanNode[]) => plan.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : []));
const seqScans = (plan: PlanNode[]) => plan.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'products');

describe.runIf(onPostgres)('search plans on PostgreSQL', () => {
  const db = () => t.database.db;
  const noFilters = () => searchFilters({}, EMPTY_VOCABULARY).where;

  it('walks the newest-first index, index only, for a page of a word in half the names', async () => {
    const plan = await explain(recentPageQuery(db(), noFilters()), { window: 6000, limit: 20, offset: 0, ...relevanceValues('solbriller', EMPTY_VOCABULARY) });
    expect(plan.some((n) => n['Node Type'] === 'Index Only Scan' && n['Index Name'] === 'products_visible_newest_idx')).toBe(true);
    expect(seqScans(plan)).toEqual([]);
  });

  it('looks a rare name word up in the name GIN index once the walk comes up short', async () => {
    const plan = await explain(allCandidatesQuery(db(), noFilters(), 0), { ...relevanceValues('kalejdoskop', EMPTY_VOCABULARY) });
    expect(indexes(plan)).toContain('products_name_search_idx');
    expect(seqScans(plan)).toEqual([]);
  });

  it('looks for a description word among the newest products, within a bounded walk', async () => {
    const plan = await explain(recentCandidatesQuery(db(), noFilters(), 2), { limit: 20, window: 1200, ...relevanceValues('titanium', EMPTY_VOCABULARY) });
    expect(indexes(plan)).toEqual(['products_visible_newest_idx']);
    expect(seqScans(plan)).toEqual([]);
  });

  it('looks a rare description word up in the full-text GIN index once the walk comes up short', async () => {
    const plan = await explain(allCandidatesQuery(db(), noFilters(), 2), { ...relevanceValues('møn', EMPTY_VOCABULARY) });
    expect(indexes(plan), JSON.stringify(plan)).toContain('products_search_idx');
    expect(seqScans(plan)).toEqual([]);
  });

  it('looks a misspelt word up in the trigram index', async () => {
    const plan = await explain(candidatesQuery(db(), noFilters(), 3), { limit: 20, ...relevanceValues('kalejdoskp', EMPTY_VOCABULARY) });
    expect(indexes(plan)).toContain('products_name_trgm_idx');
    expect(seqScans(plan)).toEqual([]);
  });

  it('serves a filter and the stable sort from one index, without sorting the matches', async () => {
    for (const [input, index] of [
      [{ brand: 'lindberg' }, 'products_brand_idx'],
      [{ categorySlug: 'skibriller' }, 'products_category_idx'],
      [{}, 'products_visible_newest_idx'],
    ] as const) {
      const filters = searchFilters(input, EMPTY_VOCABULARY);
      const plan = await explain(pageQuery(db(), filters.where), { ...filters.values, limit: 20, offset: 0 });
      expect(indexes(plan), JSON.stringify(input)).toContain(index);
      expect(seqScans(plan)).toEqual([]);
      // The only sort is of the final 20 rows, above the semi-join; none below the LIMIT that picks them.
      const limit = plan.find((n) => n['Node Type'] === 'Limit');
      expect(limit && nodes(limit).some((n) => n['Node Type'] === 'Sort'), JSON.stringify(input)).toBe(false);
    }
  });
});
