/**
 * The English words a frame or lens colour is made of: colours, and the lens properties stored with them
 * ("polariseret grå", "blå spejl"). A colour filter made of these words alone finds every colour that holds
 * them (search-relevance.ts#colourWords); any other filter value is an exact match.
 */
const COLOUR_WORDS: Readonly<Record<string, readonly string[]>> = {
  // Lens properties.
  polarised: ['polariseret'],
  polarized: ['polariseret'],
  polarising: ['polariseret'],
  polarizing: ['polariseret'],
  mirror: ['spejl'],
  mirrored: ['spejl'],
  photochromic: ['fotokromisk'],
  clear: ['klar', 'transparent'],
  // Colours.
  black: ['sort'],
  matte: ['mat'],
  gold: ['guld'],
  golden: ['guld'],
  silver: ['sølv'],
  tortoise: ['havana'],
  tortoiseshell: ['havana'],
  brown: ['brun'],
  white: ['hvid'],
  blue: ['blå'],
  red: ['rød'],
  green: ['grøn'],
  grey: ['grå'],
  gray: ['grå'],
  crystal: ['transparent'],
  pink: ['rosa'],
  rose: ['rosa'],
  burgundy: ['bordeaux'],
  yellow: ['gul'],
  purple: ['lilla', 'violet'],
  'tortoise shell': ['havana'],
  navy: ['blå'],
};

/**
 * English shop words → the Danish words the catalog is written in. An agent asked for "polarised black
 * sunglasses" searches in English; the catalog says "polariseret", its frame colour "sort" and its category
 * "Solbriller". Each query word (or phrase of up to three words) also matches its Danish equivalents; the
 * word as typed stays a candidate, so nothing that matched before stops matching.
 *
 * Kept in code rather than as a PostgreSQL synonym dictionary: that needs a file in the server's
 * tsearch_data directory, which a managed PostgreSQL does not allow and the embedded one cannot load.
 * British and American spellings are listed separately.
 */
const EN_TO_DA: Readonly<Record<string, readonly string[]>> = {
  // What the products are.
  sunglasses: ['solbriller'],
  sunglass: ['solbriller'],
  glasses: ['briller'],
  eyeglasses: ['briller'],
  spectacles: ['briller'],
  eyewear: ['briller'],
  shades: ['solbriller'],
  'sun glasses': ['solbriller'],
  'optical glasses': ['briller'],
  'prescription glasses': ['briller'],
  'reading glasses': ['læsebriller'],
  reading: ['læsebriller'],
  readers: ['læsebriller'],
  'sports glasses': ['sportsbriller'],
  'blue light glasses': ['blålysbriller'],
  'blue light': ['blålys', 'blålysbriller'],
  'computer glasses': ['blålysbriller'],
  'kids glasses': ['børnebriller'],
  'children glasses': ['børnebriller'],
  'childrens glasses': ['børnebriller'],
  kids: ['børn', 'børnebriller'],
  kid: ['børn', 'børnebriller'],
  children: ['børn', 'børnebriller'],
  childrens: ['børn', 'børnebriller'],
  child: ['børn', 'børnebriller'],
  goggles: ['skibriller'],
  'ski goggles': ['skibriller'],
  accessories: ['tilbehør'],
  case: ['etui'],
  cases: ['etui'],
  ...COLOUR_WORDS,
  // Shapes and materials.
  rectangular: ['rektangulær'],
  square: ['kvadratisk'],
  acetate: ['acetat'],
  steel: ['stål'],
  'stainless steel': ['rustfrit stål'],
  recycled: ['genanvendt'],
  plastic: ['plast'],
  aluminum: ['aluminium'],
  // Uses.
  driving: ['bilkørsel'],
  beach: ['stranden'],
  city: ['byen'],
  cycling: ['cykling'],
  running: ['løb'],
  skiing: ['skiferie'],
  sailing: ['sejlads'],
  office: ['kontoret'],
  'screen work': ['skærmarbejde'],
  hiking: ['vandring'],
  festivals: ['festivaler'],
  festival: ['festivaler'],
  men: ['herre'],
  mens: ['herre'],
  women: ['dame'],
  womens: ['dame'],
};

/**
 * Words that say nothing a product's text could match: English function words ("sunglasses for kids"), and
 * words for parts every pair of glasses has, which qualify a colour ("black frame", "grey lenses", "red
 * colour") rather than ask for something. Danish function words need no list: the Danish text search
 * configuration drops them itself.
 */
const FILLERS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'with', 'in', 'for', 'of', 'on', 'to', 'by', 'pair',
  'colour', 'color', 'coloured', 'colored', 'frame', 'frames', 'lens', 'lenses',
]);

/** Whether a term is colour words alone (COLOUR_WORDS): "black", "tortoise shell", not "tortoise 12". */
export function isColourTerm(term: SearchTerm): boolean {
  return Object.hasOwn(COLOUR_WORDS, term.words.join(' ').toLowerCase());
}

/** The longest phrase in EN_TO_DA, in words. */
const LONGEST_PHRASE = 3;

/** A query term: the words as typed (one, or a phrase) and the Danish words that may stand for them. */
export type SearchTerm = { words: readonly string[]; danish: readonly string[] };

/** The words a search should match: all but the fillers, unless nothing else is left. */
export function meaningfulWords(words: readonly string[]): readonly string[] {
  const kept = words.filter((word) => !FILLERS.has(word.toLowerCase()));
  return kept.length > 0 ? kept : words;
}

/** The Danish words for an English word or phrase; own keys only, so "constructor" is just a word. */
function danishFor(words: readonly string[]): readonly string[] | undefined {
  const key = words.join(' ').toLowerCase();
  return Object.hasOwn(EN_TO_DA, key) ? EN_TO_DA[key] : undefined;
}

/** The longest phrase starting at words[from] that EN_TO_DA knows, as a term; else the single word. */
function termAt(words: readonly string[], from: number): SearchTerm {
  for (let length = Math.min(LONGEST_PHRASE, words.length - from); length > 1; length -= 1) {
    const phrase = words.slice(from, from + length);
    const danish = danishFor(phrase);
    if (danish) return { words: phrase, danish };
  }
  const word = words[from] ?? '';
  return { words: [word], danish: danishFor([word]) ?? [] };
}

/**
 * The query's meaningful words as terms, longest phrases first ("blue light glasses" → blålysbriller), so that
 * each term is matched by its own words or by any of its Danish equivalents.
 */
export function searchTerms(words: readonly string[]): SearchTerm[] {
  const terms: SearchTerm[] = [];
  let next = 0;
  while (next < words.length) {
    const term = termAt(words, next);
    terms.push(term);
    next += term.words.length;
  }
  return terms;
}
