import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../src/db/schema.ts';
import { EYEWEAR_VOCABULARY } from '../../src/seed/search-vocabulary.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createCategory, createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';
import { expectValidation } from '../helpers/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The English words are the shop's data: this shop takes the demo eyewear shop's.
  expect((await t.call('settings.update', { searchVocabulary: EYEWEAR_VOCABULARY }, master)).status).toBe(200);
});
afterAll(async () => { await t?.close(); });

type Summary = { id: string; slug: string; name: string; brand: string | null; priceDkk: number; stock: number; featured: boolean };

async function search(body: Record<string, unknown>): Promise<Summary[]> {
  const response = await t.call('products.search', body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result;
}

const slugs = (rows: Summary[]) => rows.map((row) => row.slug);

/** A category of its own, so a test sees only the products it made. */
async function shelf() {
  return (await createCategory(t)).slug;
}

async function setCreatedAt(slug: string, iso: string): Promise<void> {
  await t.database.db.update(products).set({ createdAt: new Date(iso) }).where(eq(products.slug, slug));
}

describe('the result', () => {
  it('is exactly the documented summary fields', async () => {
    const categorySlug = await shelf();
    await createProduct(t, { categorySlug, brand: 'Persol', images: ['https://img.test/p1.jpg', 'https://img.test/p2.jpg'] });
    await createProduct(t, { categorySlug });
    const found = await search({ categorySlug });
    const withImage = found.find((p) => p.brand === 'Persol');
    const without = found.find((p) => p.brand === null);
    expect(Object.keys(withImage ?? {}).sort()).toEqual([
      'brand', 'categoryName', 'categorySlug', 'featured', 'firstImage', 'frameColor', 'id', 'lensColor', 'name',
      'priceDkk', 'slug', 'stock',
    ]);
    expect(withImage).toMatchObject({ brand: 'Persol', categorySlug, categoryName: 'Solbriller', firstImage: 'https://img.test/p1.jpg' });
    expect(without).toMatchObject({ brand: null, frameColor: null, lensColor: null, firstImage: null });
  });
});

describe('filters', () => {
  it('matches brand, frameColor and lensColor exactly and case-insensitively, æøå included', async () => {
    const categorySlug = await shelf();
    const a = await createProduct(t, { categorySlug, brand: 'Ørgreen', frameColor: 'Grøn', lensColor: 'Blå Spejl' });
    await createProduct(t, { categorySlug, brand: 'Ørgreen Optics', frameColor: 'Grønlig', lensColor: 'Blå' });
    for (const filter of [{ brand: 'ØRGREEN' }, { brand: 'ørgreen' }, { frameColor: 'GRØN' }, { lensColor: 'blå spejl' }]) {
      expect(slugs(await search({ categorySlug, ...filter })), JSON.stringify(filter)).toEqual([a.slug]);
    }
    expect(await search({ categorySlug, brand: 'Ørg' })).toEqual([]);
  });

  it('matches categorySlug exactly and case-insensitively', async () => {
    const categorySlug = await shelf();
    const product = await createProduct(t, { categorySlug });
    expect(slugs(await search({ categorySlug: categorySlug.toUpperCase() }))).toEqual([product.slug]);
    expect(await search({ categorySlug: categorySlug.slice(0, -1) })).toEqual([]);
    expect(await search({ categorySlug: 'no-such-category' })).toEqual([]);
  });

  it('featured: true gives only featured, false only non-featured', async () => {
    const categorySlug = await shelf();
    const star = await createProduct(t, { categorySlug, featured: true });
    const plain = await createProduct(t, { categorySlug });
    expect(slugs(await search({ categorySlug, featured: true }))).toEqual([star.slug]);
    expect(slugs(await search({ categorySlug, featured: false }))).toEqual([plain.slug]);
    expect(await search({ categorySlug })).toHaveLength(2);
  });

  it('inStock: true gives stock > 0, false gives stock = 0', async () => {
    const categorySlug = await shelf();
    const sold = await createProduct(t, { categorySlug, stock: 0 });
    const one = await createProduct(t, { categorySlug, stock: 1 });
    expect(slugs(await search({ categorySlug, inStock: true }))).toEqual([one.slug]);
    expect(slugs(await search({ categorySlug, inStock: false }))).toEqual([sold.slug]);
  });

  it('treats both price bounds as inclusive', async () => {
    const categorySlug = await shelf();
    const p = await createProduct(t, { categorySlug, priceDkk: 1000 });
    expect(slugs(await search({ categorySlug, minPriceOere: 1000, maxPriceOere: 1000 }))).toEqual([p.slug]);
    expect(await search({ categorySlug, minPriceOere: 1001 })).toEqual([]);
    expect(await search({ categorySlug, maxPriceOere: 999 })).toEqual([]);
    expect(slugs(await search({ categorySlug, minPriceOere: 0, maxPriceOere: 9007199254740991 }))).toEqual([p.slug]);
    expect(await search({ categorySlug, minPriceOere: 2000, maxPriceOere: 10 })).toEqual([]);
  });

  it('combines filters with AND', async () => {
    const categorySlug = await shelf();
    const hit = await createProduct(t, { categorySlug, brand: 'Oakley', featured: true, stock: 2, priceDkk: 5000 });
    await createProduct(t, { categorySlug, brand: 'Oakley', featured: false, stock: 2, priceDkk: 5000 });
    await createProduct(t, { categorySlug, brand: 'Oakley', featured: true, stock: 0, priceDkk: 5000 });
    await createProduct(t, { categorySlug, brand: 'Julbo', featured: true, stock: 2, priceDkk: 5000 });
    expect(slugs(await search({ categorySlug, brand: 'oakley', featured: true, inStock: true, maxPriceOere: 5000 }))).toEqual([hit.slug]);
  });
});

describe('free text (q)', () => {
  it('searches name, brand and description', async () => {
    const word = `zylo${uniqueSlug('w').replaceAll('-', '')}`;
    const inName = await createProduct(t, { name: `${word} Aviator` });
    const inBrand = await createProduct(t, { brand: word });
    const inDescription = await createProduct(t, { description: `Made with ${word} acetate from Italy.` });
    await createProduct(t, { name: 'Unrelated Frame' });
    expect(slugs(await search({ q: word })).sort()).toEqual([inName.slug, inBrand.slug, inDescription.slug].sort());
  });

  it('ranks a match in the name above a match in the description', async () => {
    const word = `kvarts${uniqueSlug('w').replaceAll('-', '')}`;
    const inDescription = await createProduct(t, { description: `Lenses of ${word} glass, very clear.` });
    const inName = await createProduct(t, { name: `${word} Round` });
    await setCreatedAt(inName.slug, '2020-01-01T00:00:00Z');
    await setCreatedAt(inDescription.slug, '2030-01-01T00:00:00Z');
    expect(slugs(await search({ q: word }))).toEqual([inName.slug, inDescription.slug]);
  });

  it('matches Danish words with æ, ø and å in any case', async () => {
    const categorySlug = await shelf();
    const p = await createProduct(t, { categorySlug, name: 'Læsebrille Blå', description: 'Foldbar læsebrille til rejsen, med etui.' });
    for (const q of ['læsebrille', 'LÆSEBRILLE', 'blå', 'BLÅ', 'læse', 'rejsen']) {
      expect(slugs(await search({ categorySlug, q })), q).toEqual([p.slug]);
    }
  });

  it('understands English shop words against the Danish catalog', async () => {
    const categorySlug = await shelf();
    const aviator = await createProduct(t, { categorySlug, name: 'Polariseret Aviator Fjord', description: 'Solbriller med sort stel af titanium.' });
    const round = await createProduct(t, { categorySlug, name: 'Rund Læsebrille', description: 'Læsebriller med brunt stel.' });
    await setCreatedAt(aviator.slug, '2020-01-01T00:00:00Z');
    expect(slugs(await search({ categorySlug, q: 'polarised aviator' }))).toEqual([aviator.slug]);
    expect(slugs(await search({ categorySlug, q: 'polarized AVIATOR' }))).toEqual([aviator.slug]);
    expect(slugs(await search({ categorySlug, q: 'black sunglasses' }))).toEqual([aviator.slug]);
    expect(slugs(await search({ categorySlug, q: 'reading glasses' }))).toEqual([round.slug]);
    // Danish words as typed keep matching, and every word still has to match.
    expect(slugs(await search({ categorySlug, q: 'polariseret aviator' }))).toEqual([aviator.slug]);
    expect(slugs(await search({ categorySlug, q: 'polarised wayfarer' }))).toEqual([]);
  });

  it('matches Danish inflections through the Danish stemmer, stop words aside', async () => {
    const categorySlug = await shelf();
    const p = await createProduct(t, { categorySlug, name: 'Sorte Briller Klit', description: 'Et par briller til kontoret.' });
    for (const q of ['brillerne', 'sort briller', 'briller med sort', 'kontorets']) {
      expect(slugs(await search({ categorySlug, q })), q).toEqual([p.slug]);
    }
  });

  it('ranks strongest first: whole name words, then name word beginnings, then brand or description', async () => {
    const categorySlug = await shelf();
    const inDescription = await createProduct(t, { categorySlug, name: 'Klit Panto', description: 'Solbriller med polariserede glas.' });
    const beginning = await createProduct(t, { categorySlug, name: 'Polariserede Klit' });
    const whole = await createProduct(t, { categorySlug, name: 'Polarised Klit' });
    await setCreatedAt(whole.slug, '2019-01-01T00:00:00Z');
    await setCreatedAt(beginning.slug, '2020-01-01T00:00:00Z');
    await setCreatedAt(inDescription.slug, '2030-01-01T00:00:00Z');
    expect(slugs(await search({ categorySlug, q: 'polarised' }))).toEqual([whole.slug, beginning.slug, inDescription.slug]);
  });

  it('combines q with filters', async () => {
    const word = `fjeld${uniqueSlug('w').replaceAll('-', '')}`;
    const cheap = await createProduct(t, { name: `${word} Light`, priceDkk: 100 });
    await createProduct(t, { name: `${word} Heavy`, priceDkk: 100000 });
    expect(slugs(await search({ q: word, maxPriceOere: 100 }))).toEqual([cheap.slug]);
  });

  it('answers q of punctuation, tsquery syntax or quotes without an error', async () => {
    for (const q of ['!!!', '&|:*()', "'; drop table products; --", '"\\', 'a & b | !c:*', ' ', '', '<->', '%_']) {
      const response = await t.call('products.search', { q });
      expect(response.status, q).toBe(200);
    }
    expect((await t.call('products.search', { q: 'x'.repeat(200) })).status).toBe(200);
    expect((await t.call('products.search', { q: 'a '.repeat(100) })).status).toBe(200);
  });

  it('bounds q at 200 characters', async () => {
    expectValidation(await t.call('products.search', { q: 'x'.repeat(201) }), ['q']);
  });
});

describe('order and paging', () => {
  it('lists newest first without q, ties broken by id (descending)', async () => {
    const categorySlug = await shelf();
    const made = [];
    for (let i = 0; i < 5; i += 1) made.push(await createProduct(t, { categorySlug }));
    const [oldest, newest, ...tied] = made;
    if (!oldest || !newest) throw new Error('fixture');
    await setCreatedAt(oldest.slug, '2021-01-01T00:00:00Z');
    await setCreatedAt(newest.slug, '2023-01-01T00:00:00Z');
    for (const p of tied) await setCreatedAt(p.slug, '2022-01-01T00:00:00Z');
    const tiedById = [...tied].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((p) => p.slug);
    expect(slugs(await search({ categorySlug }))).toEqual([newest.slug, ...tiedById, oldest.slug]);
  });

  it('pages with limit and offset without overlap or gaps', async () => {
    const categorySlug = await shelf();
    for (let i = 0; i < 7; i += 1) await createProduct(t, { categorySlug });
    const all = slugs(await search({ categorySlug, limit: 100 }));
    expect(all).toHaveLength(7);
    const paged: string[] = [];
    for (let offset = 0; offset < 9; offset += 3) paged.push(...slugs(await search({ categorySlug, limit: 3, offset })));
    expect(paged).toEqual(all);
    expect(await search({ categorySlug, offset: 7 })).toEqual([]);
  });

  it('pages a q search without overlap', async () => {
    const word = `pagina${uniqueSlug('w').replaceAll('-', '')}`;
    for (let i = 0; i < 3; i += 1) await createProduct(t, { name: `${word} Frame` });
    for (let i = 0; i < 3; i += 1) await createProduct(t, { description: `Described as ${word} quality.` });
    const all = slugs(await search({ q: word, limit: 100 }));
    expect(all).toHaveLength(6);
    const paged: string[] = [];
    for (let offset = 0; offset < 6; offset += 4) paged.push(...slugs(await search({ q: word, limit: 4, offset })));
    expect(paged).toEqual(all);
  });

  it('defaults to 20 results and honours limit 1 and 100', async () => {
    const categorySlug = await shelf();
    for (let i = 0; i < 21; i += 1) await createProduct(t, { categorySlug });
    expect(await search({ categorySlug })).toHaveLength(20);
    expect(await search({ categorySlug, limit: 1 })).toHaveLength(1);
    expect(await search({ categorySlug, limit: 100 })).toHaveLength(21);
    expect(await search({ categorySlug, offset: 10000 })).toEqual([]);
  });
});

describe('soft-deleted products', () => {
  it('never appear in search, by filter or by text', async () => {
    const categorySlug = await shelf();
    const word = `slettet${uniqueSlug('w').replaceAll('-', '')}`;
    const gone = await createProduct(t, { categorySlug, name: `${word} Gone`, brand: word });
    const kept = await createProduct(t, { categorySlug });
    await t.call('products.delete', { slug: gone.slug, confirm: true }, master);
    expect(slugs(await search({ categorySlug }))).toEqual([kept.slug]);
    expect(await search({ q: word })).toEqual([]);
    expect(await search({ brand: word })).toEqual([]);
  });
});

describe('bounds', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['limit', { limit: 0 }, { limit: 1 }],
    ['limit', { limit: 101 }, { limit: 100 }],
    ['limit', { limit: 2.5 }, { limit: 2 }],
    ['offset', { offset: 10001 }, { offset: 10000 }],
    ['offset', { offset: -1 }, { offset: 0 }],
    ['minPriceOere', { minPriceOere: -1 }, { minPriceOere: 0 }],
    ['maxPriceOere', { maxPriceOere: -1 }, { maxPriceOere: 0 }],
    ['minPriceOere', { minPriceOere: 9007199254740992 }, { minPriceOere: 9007199254740991 }],
    ['maxPriceOere', { maxPriceOere: 9007199254740992 }, { maxPriceOere: 9007199254740991 }],
    ['featured', { featured: 'false' }, { featured: false }],
    ['inStock', { inStock: 1 }, { inStock: true }],
    ['brand', { brand: '' }, { brand: 'x' }],
    ['categorySlug', { categorySlug: 7 }, { categorySlug: 'x' }],
  ];
  for (const [path, bad, good] of cases) {
    it(`rejects ${JSON.stringify(bad)} and accepts ${JSON.stringify(good)}`, async () => {
      expectValidation(await t.call('products.search', bad), [path]);
      expect((await t.call('products.search', good)).status).toBe(200);
    });
  }
});

describe('the search vocabulary is the shop\'s data', () => {
  it('matches English words only through the words the shop stores, and follows a change at once', async () => {
    const categorySlug = await shelf();
    const product = await createProduct(t, { categorySlug, name: 'Fjord Cykelbrille', description: 'Let brille til cykling og løb.' });
    expect(slugs(await search({ categorySlug, q: 'bicycle' }))).toEqual([]);
    const vocabulary = { ...EYEWEAR_VOCABULARY, words: { ...EYEWEAR_VOCABULARY.words, bicycle: ['cykel', 'cykelbrille'] } };
    expect((await t.call('settings.update', { searchVocabulary: vocabulary }, master)).status).toBe(200);
    expect(slugs(await search({ categorySlug, q: 'bicycle' }))).toEqual([product.slug]);
    expect((await t.call('settings.update', { searchVocabulary: EYEWEAR_VOCABULARY }, master)).status).toBe(200);
    expect(slugs(await search({ categorySlug, q: 'bicycle' }))).toEqual([]);
  });

  it('refuses a phrase of more than three words and an empty list of catalog words by their paths', async () => {
    const refused = await t.call('settings.update', { searchVocabulary: { words: { 'a very long phrase here': ['x'], kids: [] }, ignore: [] } }, master);
    expect(refused.status).toBe(400);
    const paths = (refused.body.errors as Array<{ path: string }>).map((error) => error.path);
    expect(paths).toEqual(expect.arrayContaining(['searchVocabulary.words.a very long phrase here', 'searchVocabulary.words.kids']));
  });
});

// Last in the file: the slug counter of the fixtures stays where the tests above expect it.
describe('colour filters', () => {
  it('matches a colour that is not English colour words alone exactly, though it holds one', async () => {
    const categorySlug = await shelf();
    const code = await createProduct(t, { categorySlug, frameColor: 'Tortoise-12', lensColor: 'Grey 3 Polar' });
    await createProduct(t, { categorySlug, frameColor: 'Tortoise-12-Light', lensColor: 'Grey 3 Polar Plus' });
    for (const filter of [{ frameColor: 'TORTOISE-12' }, { frameColor: 'tortoise-12' }, { lensColor: 'grey 3 polar' }]) {
      expect(slugs(await search({ categorySlug, ...filter })), JSON.stringify(filter)).toEqual([code.slug]);
    }
    expect(await search({ categorySlug, frameColor: 'Tortoise 12' })).toEqual([]);
  });

  it('reads a colour of English colour words alone as words: black finds "sort" and "mat sort", not "sortering"', async () => {
    const categorySlug = await shelf();
    const sort = await createProduct(t, { categorySlug, frameColor: 'sort' });
    const matte = await createProduct(t, { categorySlug, frameColor: 'mat sort' });
    await createProduct(t, { categorySlug, frameColor: 'sortering' });
    await createProduct(t, { categorySlug, frameColor: 'hvid' });
    for (const frameColor of ['black', 'BLACK', 'black frame']) {
      expect(slugs(await search({ categorySlug, frameColor })).sort(), frameColor).toEqual([sort.slug, matte.slug].sort());
    }
    expect(slugs(await search({ categorySlug, frameColor: 'matte black' }))).toEqual([matte.slug]);
  });
});
