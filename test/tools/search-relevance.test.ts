import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCategory, createProduct } from '../helpers/fixtures.ts';

/** How products.search ranks q (relevance for q, else newest first, ties by id). */
let t: TestApp;
let categorySlug: string;
beforeAll(async () => {
  t = await createTestApp();
  categorySlug = (await createCategory(t)).slug;
});
afterAll(async () => { await t?.close(); });

/** Created in this order, so a later product is newer. */
async function products(...fields: Array<Record<string, unknown>>): Promise<string[]> {
  const slugs: string[] = [];
  for (const f of fields) slugs.push((await createProduct(t, { categorySlug, ...f })).slug);
  return slugs;
}

async function search(body: Record<string, unknown>): Promise<string[]> {
  const response = await t.call('products.search', body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result.map((p: { slug: string }) => p.slug);
}

describe('products.search relevance', () => {
  it('ranks a whole word of the name first, then a word beginning, then the description, then near spellings', async () => {
    const [inName, prefix, inDescription, typo, unrelated] = await products(
      { name: 'Skovlys Pilot', description: 'En let pilotbrille i tyndt metal.' },
      { name: 'Skovlysbrille Round', description: 'Rundt stel i acetat med klare glas.' },
      { name: 'Fjord Navigator', description: 'Inspireret af skovlys og lange sommerdage.' },
      { name: 'Skovlis Cat-Eye', description: 'Cat-eye med fine detaljer i emalje.' },
      { name: 'Havbris Panto', description: 'Panto-stel i genanvendt plast til hverdag.' },
    );
    // The newest of a class comes first, but no class beats a better one.
    const found = await search({ q: 'skovlys' });
    expect(found).toEqual([inName, prefix, inDescription, typo]);
    expect(found).not.toContain(unrelated);
  });

  it('puts the exact word before longer words that start with it ("gul" before "guld")', async () => {
    const [exact, longer] = await products(
      { name: 'Kystlinje Wayfarer – gul', description: 'Wayfarer med gule glas til diset vejr.' },
      { name: 'Kystlinje Wayfarer – guld', description: 'Wayfarer i forgyldt metal og brune glas.' },
    );
    expect(await search({ q: 'kystlinje gul' })).toEqual([exact, longer]);
  });

  it('requires every word, in any order, and reads "sort/grøn" as two words', async () => {
    const [black, green] = await products(
      { name: 'Vestkyst Wayfarer – sort/grøn', description: 'Klassisk wayfarer med grønne glas.' },
      { name: 'Vestkyst Wayfarer – grøn/sort', description: 'Grønt stel med mørke glas til stranden.' },
    );
    expect(await search({ q: 'vestkyst sort wayfarer' })).toEqual([green, black]);
    expect(await search({ q: 'GRØN vestkyst' })).toEqual([green, black]);
  });

  it('matches Danish letters whatever their case', async () => {
    const [orgreen] = await products({ name: 'Ørgreen Sølvpil', brand: 'Ørgreen', description: 'Håndlavet titaniumstel fra København.' });
    expect(await search({ q: 'ørgreen' })).toEqual([orgreen]);
    expect(await search({ q: 'ØRGREEN sølvpil' })).toEqual([orgreen]);
    expect(await search({ q: 'københavn' })).toEqual([orgreen]);
  });

  it('pages across the relevance classes exactly as one long page', async () => {
    await products(
      { name: 'Nattergal One', description: 'Første model.' },
      { name: 'Nattergal Two', description: 'Anden model med nattergalmotiv.' },
      { name: 'Nattergalen Three', description: 'Tredje model.' },
      { name: 'Dagsommerfugl', description: 'Nævner nattergal i beskrivelsen.' },
      { name: 'Nattergl Five', description: 'Stavefejl i navnet.' },
    );
    const all = await search({ q: 'nattergal', limit: 100 });
    expect(all).toHaveLength(5);
    const paged: string[] = [];
    for (let offset = 0; offset < 6; offset += 2) paged.push(...await search({ q: 'nattergal', limit: 2, offset }));
    expect(paged).toEqual(all);
    expect(await search({ q: 'nattergal', offset: 5 })).toEqual([]);
  });

  it('combines q with filters', async () => {
    const [cheap, dear] = await products(
      { name: 'Solskin Aviator', brand: 'Komono', priceDkk: 49_900 },
      { name: 'Solskin Aviator Gold', brand: 'Komono', priceDkk: 149_900 },
    );
    expect(await search({ q: 'solskin', brand: 'komono', maxPriceOere: 50_000 })).toEqual([cheap]);
    expect(await search({ q: 'solskin', minPriceOere: 50_000 })).toEqual([dear]);
  });

  it('treats a q without letters or digits as no q: newest first', async () => {
    const newest = await search({ limit: 3 });
    expect(await search({ q: ' -/ ', limit: 3 })).toEqual(newest);
  });
});
