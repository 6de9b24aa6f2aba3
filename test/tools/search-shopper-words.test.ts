import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../src/seed/demo.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';

/**
 * products.search with the words a shopper uses, on the demo shop: the colour sits in frameColor/lensColor and
 * the kind of product in the category's name, which the product's name and description need not repeat.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: BASE_URL });
});
afterAll(async () => { await t?.close(); });

type Found = { slug: string; categorySlug: string; frameColor: string | null; lensColor: string | null };

async function search(body: Record<string, unknown>): Promise<Found[]> {
  const response = await t.call('products.search', { limit: 100, ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result;
}
const slugs = (found: Found[]) => found.map((p) => p.slug);

/** The demo's sunglasses, newest first (the seed makes each product a day newer than the one before). */
const SUNGLASSES = [
  'boelge-kids', 'nova-pilot-soelv', 'coast-wayfarer-blaa', 'solstice-butterfly', 'midnight-navigator', 'havbris-oversize',
  'fjord-pilot', 'nordlys-cat-eye', 'skagen-round', 'holbrook-polariseret', 'clubmaster-havana', 'wayfarer-sort', 'aviator-classic',
];

describe('a shopper\'s words in q', () => {
  it('finds the black polarised sunglasses of the README, in British and American spelling and in Danish', async () => {
    for (const q of ['black polarised sunglasses', 'polarized black sunglasses', 'polariserede sorte solbriller']) {
      expect(slugs(await search({ q })), q).toEqual(['midnight-navigator', 'holbrook-polariseret']);
    }
  });

  it('finds every product of a category by its English or Danish name', async () => {
    for (const q of ['sunglasses', 'solbriller', 'Sunglasses']) expect(slugs(await search({ q })), q).toEqual(SUNGLASSES);
    for (const q of ['reading glasses', 'læsebriller']) {
      const found = await search({ q });
      expect(found.map((p) => p.categorySlug), q).toEqual(['laesebriller', 'laesebriller', 'laesebriller', 'laesebriller']);
    }
  });

  it('reads colour words as the frame and lens colours, grey and gray alike', async () => {
    expect(slugs(await search({ q: 'black sunglasses' }))).toEqual(['midnight-navigator', 'havbris-oversize', 'holbrook-polariseret', 'wayfarer-sort']);
    const grey = await search({ q: 'grey sunglasses' });
    expect(slugs(await search({ q: 'gray sunglasses' }))).toEqual(slugs(grey));
    expect(grey.length).toBeGreaterThan(0);
    for (const p of grey) expect(`${p.frameColor} ${p.lensColor}`, p.slug).toContain('grå');
  });

  it('understands kids, sunglasses for kids and filler words', async () => {
    expect(slugs(await search({ q: 'kids' }))).toEqual(['boelge-kids']);
    expect(slugs(await search({ q: 'sunglasses for kids' }))).toEqual(['boelge-kids']);
    expect(slugs(await search({ q: 'solbriller til børn' }))).toEqual(['boelge-kids']);
    expect(slugs(await search({ q: 'sunglasses with a black frame' })))
      .toEqual(['midnight-navigator', 'havbris-oversize', 'holbrook-polariseret', 'wayfarer-sort']);
  });

  it('ranks the best match first: a colour named in the product name before one only in the frame colour', async () => {
    const found = slugs(await search({ q: 'black' }));
    expect(found[0]).toBe('wayfarer-sort');
    expect(found.slice(1)).toEqual(['midnight-navigator', 'kontor-laesebrille-2-0', 'ravn-hexagonal', 'frost-goggle', 'havbris-oversize', 'holbrook-polariseret']);
    // Another wayfarer's name resembles the words (near spellings come last), but it is not black.
    expect(slugs(await search({ q: 'wayfarer black' }))).toEqual(['wayfarer-sort', 'coast-wayfarer-blaa']);
  });

  it('reads words that name JavaScript object members as plain words', async () => {
    expect(await search({ q: 'constructor toString' })).toEqual([]);
    expect(await search({ frameColor: '__proto__' })).toEqual([]);
  });

  it('still requires every meaningful word', async () => {
    expect(await search({ q: 'black polarised reading glasses' })).toEqual([]);
    expect(await search({ q: 'pink sunglasses titanium aviator' })).toEqual([]);
  });
});

describe('colour filters in English', () => {
  it('finds every frame colour holding the Danish word, in any case', async () => {
    const black = await search({ frameColor: 'black' });
    expect(black.map((p) => p.frameColor).sort()).toEqual(['mat sort', 'sort', 'sort', 'sort', 'sort', 'sort', 'sort']);
    expect(slugs(await search({ frameColor: 'BLACK' }))).toEqual(slugs(black));
  });

  it('keeps a Danish colour an exact match', async () => {
    const sort = await search({ frameColor: 'Sort' });
    expect(sort.map((p) => p.frameColor)).toEqual(['sort', 'sort', 'sort', 'sort', 'sort', 'sort']);
    expect((await search({ frameColor: 'mat sort' })).map((p) => p.slug)).toEqual(['holbrook-polariseret']);
  });

  it('finds lens colours by an English word, and combines with q and the other filters', async () => {
    const polarized = await search({ lensColor: 'polarized' });
    expect(polarized.map((p) => p.lensColor)).toEqual(['polariseret grå', 'polariseret brun', 'polariseret grå']);
    expect(slugs(await search({ lensColor: 'grey', frameColor: 'black', q: 'sunglasses', inStock: true })))
      .toEqual(['holbrook-polariseret', 'wayfarer-sort']);
    expect((await search({ lensColor: 'mirror' })).map((p) => p.lensColor)).toEqual(['sølv spejl', 'guld spejl', 'blå spejl']);
  });
});

describe('the category\'s name in the search', () => {
  it('follows a category that is renamed, and a product that moves to another category', async () => {
    await t.call('categories.upsert', { slug: 'tilbehoer', name: 'Tilbehør og reservedele' }, master);
    expect(slugs(await search({ q: 'reservedele' }))).toEqual(['brillesnor-i-bomuld', 'mikrofiberklud-3-pak', 'brilleetui-i-laeder']);
    const moved = await t.call('products.update', { slug: 'brillesnor-i-bomuld', patch: { categorySlug: 'solbriller' } }, master);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(slugs(await search({ q: 'reservedele' }))).toEqual(['mikrofiberklud-3-pak', 'brilleetui-i-laeder']);
    expect(slugs(await search({ q: 'sunglasses' }))).toContain('brillesnor-i-bomuld');
  });
});

describe('what agents read about q', () => {
  it('names every field q matches and the colour filters\' English words', async () => {
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const text = listed.body;
    for (const field of ['name, brand, frame colour, lens colour, category name and description', 'black → sort', 'sunglasses → solbriller']) {
      expect(text).toContain(field);
    }
    expect(text).toContain('black → \\"sort\\" and \\"mat sort\\"');
  });
});
