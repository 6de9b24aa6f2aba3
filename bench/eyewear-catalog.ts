/**
 * Butik's deterministic eyewear catalog for benchmarks: product(i) is the i-th product (0-based), and the
 * same i always gives the same product, so figures compare across runs and with other systems loaded with
 * the very same catalog (the reference generator other systems use produces it identically; a test compares
 * the two whenever that reference is at hand). Fields follow the product shape of docs/behaviour.md#products; priceDkk is øre
 * incl. 25 % VAT. `npm run bench:catalog -- --products N` dumps it as NDJSON.
 */

export type CatalogCategory = { slug: string; name: string; en: string; share: number };

export const CATEGORIES: readonly CatalogCategory[] = [
  { slug: 'solbriller', name: 'Solbriller', en: 'sunglasses', share: 40 },
  { slug: 'briller', name: 'Briller', en: 'optical glasses', share: 22 },
  { slug: 'sportsbriller', name: 'Sportsbriller', en: 'sports glasses', share: 10 },
  { slug: 'laesebriller', name: 'Læsebriller', en: 'reading glasses', share: 8 },
  { slug: 'blaalysbriller', name: 'Blålysbriller', en: 'blue light glasses', share: 7 },
  { slug: 'boernebriller', name: 'Børnebriller', en: 'kids glasses', share: 6 },
  { slug: 'skibriller', name: 'Skibriller', en: 'ski goggles', share: 4 },
  { slug: 'tilbehoer', name: 'Tilbehør', en: 'accessories', share: 3 },
];

export const BRANDS: readonly string[] = [
  'Ray-Ban', 'Oakley', 'Persol', 'Prada', 'Gucci', 'Tom Ford', 'Carrera', 'Polaroid', 'Maui Jim',
  'Oliver Peoples', 'Lindberg', 'Ørgreen', 'Kilsgaard', 'Prodesign Denmark', 'Scandinavian Eyewear',
  'Arne Jacobsen', 'Hugo Boss', 'Michael Kors', 'Vogue Eyewear', 'Emporio Armani', 'Dior', 'Police',
  'Nike Vision', 'Julbo', 'Smith', 'POC', 'Bollé', 'Cébé', 'Adidas', 'Le Specs', 'Quay', 'Komono',
  'Han Kjøbenhavn', 'Monokel', 'Moscot', 'Garrett Leight', 'Gentle Monster', 'Etnia Barcelona',
  'Silhouette', 'Tiger of Sweden',
];

/** [Danish, English] */
type Pair = readonly [string, string];

export const FRAME_COLORS: readonly Pair[] = [
  ['sort', 'black'], ['mat sort', 'matte black'], ['guld', 'gold'], ['sølv', 'silver'],
  ['havana', 'tortoise'], ['brun', 'brown'], ['hvid', 'white'], ['blå', 'blue'], ['rød', 'red'],
  ['grøn', 'green'], ['grå', 'grey'], ['transparent', 'crystal'], ['rosa', 'pink'],
  ['gunmetal', 'gunmetal'], ['bronze', 'bronze'], ['bordeaux', 'burgundy'],
];
export const LENS_COLORS: readonly Pair[] = [
  ['grøn', 'green'], ['grå', 'grey'], ['brun', 'brown'], ['blå spejl', 'blue mirror'],
  ['guld spejl', 'gold mirror'], ['sølv spejl', 'silver mirror'], ['polariseret grå', 'polarized grey'],
  ['polariseret brun', 'polarized brown'], ['gul', 'yellow'], ['klar', 'clear'], ['rosa', 'rose'],
  ['violet', 'violet'], ['orange', 'orange'], ['fotokromisk', 'photochromic'],
];

const STYLES = [
  'Aviator', 'Wayfarer', 'Clubmaster', 'Round', 'Cat-Eye', 'Pilot', 'Browline', 'Oversize', 'Rektangulær',
  'Sport Wrap', 'Shield', 'Hexagonal', 'Panto', 'Butterfly', 'Navigator', 'Kvadratisk',
];
const MODEL_WORDS = [
  'Nordlys', 'Havbris', 'Klit', 'Fjord', 'Storm', 'Skagen', 'Aurora', 'Midnight', 'Solstice', 'Bølge',
  'Ravn', 'Ember', 'Horizon', 'Lyngby', 'Vesterhav', 'Sommer', 'Frost', 'Drift', 'Harbour', 'Sand',
  'Eclipse', 'Nova', 'Tidal', 'Amager', 'Coast', 'Falk', 'Glow', 'Marina', 'Vild', 'Kyst',
];
const MATERIALS: readonly Pair[] = [
  ['acetat', 'acetate'], ['titanium', 'titanium'], ['metal', 'metal'], ['TR90 nylon', 'TR90 nylon'],
  ['bio-acetat', 'bio-acetate'], ['rustfrit stål', 'stainless steel'], ['genanvendt plast', 'recycled plastic'],
];
const USES = [
  'bilkørsel', 'stranden', 'byen', 'cykling', 'løb', 'skiferie', 'sejlads', 'kontoret', 'skærmarbejde',
  'golf', 'vandring', 'festivaler',
];
const EN_USES = [
  'driving', 'the beach', 'the city', 'cycling', 'running', 'skiing', 'sailing', 'the office', 'screen work',
  'golf', 'hiking', 'festivals',
];

export type CatalogProduct = {
  slug: string;
  name: string;
  brand: string;
  description: string;
  priceDkk: number;
  stock: number;
  featured: boolean;
  frameColor: string;
  lensColor: string | null;
  categorySlug: string;
  sku: string;
  createdAt: string;
};

/** mulberry32: small, fast, well distributed; seeded per product so any product can be made alone. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CATEGORY_WHEEL = CATEGORIES.flatMap((c) => Array.from({ length: c.share }, () => c));
const BASE_TIME = Date.UTC(2026, 0, 1);
const TWO_YEARS_MS = 2 * 365 * 24 * 3600 * 1000;

export function catalogSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/æ/g, 'ae').replace(/ø/g, 'oe').replace(/å/g, 'aa')
    .normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Every draw below happens in this order for every product; changing the order changes the catalog. */
export function product(i: number): CatalogProduct {
  const r = mulberry32(0x9e3779b9 ^ Math.imul(i + 1, 0x85ebca6b));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(r() * items.length)];
    if (item === undefined) throw new Error('empty table');
    return item;
  };
  const category = pick(CATEGORY_WHEEL);
  const brand = pick(BRANDS);
  const style = pick(STYLES);
  const word = pick(MODEL_WORDS);
  const frame = pick(FRAME_COLORS);
  const lens = category.slug === 'tilbehoer' ? null : pick(LENS_COLORS);
  const material = pick(MATERIALS);
  const useIndex = Math.floor(r() * USES.length);
  const modelNo = `${brand.replace(/[^A-Za-z]/g, '').slice(0, 2).toUpperCase()}${1000 + Math.floor(r() * 9000)}`;

  const name = lens === null
    ? `${brand} ${word} brilleetui ${frame[0]}`
    : `${brand} ${word} ${style} ${category.name.toLowerCase()} ${modelNo} – ${frame[0]}/${lens[0]}`;
  const description = lens === null
    ? `Brilleetui fra ${brand} i ${frame[0]} ${material[0]}. Beskytter dine briller på rejsen. `
      + `${brand} ${word} case in ${frame[1]} ${material[1]}, protects your glasses on the go.`
    : `${style} ${category.name.toLowerCase()} fra ${brand} med ${frame[0]} stel i ${material[0]} og `
      + `${lens[0]} glas. UV400-beskyttelse, perfekte til ${USES[useIndex]}. `
      + `${brand} ${word} ${category.en} with a ${frame[1]} ${material[1]} frame and ${lens[1]} lenses, `
      + `made for ${EN_USES[useIndex]}. Model ${modelNo}, style ${style}.`;

  // Øre incl. VAT: 149..3499 kr., in steps of 50 kr., most of them ending in 95 kr.
  const kroner = Math.round((149 + Math.pow(r(), 2) * 3350) / 50) * 50 - (r() < 0.6 ? 5 : 0);
  const priceDkk = Math.max(149, kroner) * 100;
  const stock = r() < 0.1 ? 0 : Math.floor(r() * 200) + 1;
  const featured = r() < 0.05;
  const createdAt = new Date(BASE_TIME - Math.floor(r() * TWO_YEARS_MS)).toISOString();
  return {
    slug: `${catalogSlug(name)}-${i + 1}`,
    name,
    brand,
    description,
    priceDkk,
    stock,
    featured,
    frameColor: frame[0],
    lensColor: lens ? lens[0] : null,
    categorySlug: category.slug,
    sku: `${modelNo}-${String(i + 1).padStart(7, '0')}`,
    createdAt,
  };
}
