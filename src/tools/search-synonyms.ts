/**
 * English shop words → the Danish words the catalog is written in (issue 12 B1). An agent asked for
 * "polarised black sunglasses" searches in English; the catalog says "polariseret sort solbriller". Each
 * query word (or two-word phrase) also matches its Danish equivalents; the Danish word itself stays a
 * candidate, so nothing that matched before stops matching.
 *
 * Kept in code rather than as a PostgreSQL synonym dictionary: that needs a file in the server's
 * tsearch_data directory, which a managed PostgreSQL does not allow and the embedded one cannot load.
 * Spelling variants (British and American) are listed separately.
 */
const EN_TO_DA: Readonly<Record<string, readonly string[]>> = {
  // What the products are.
  sunglasses: ['solbriller'],
  sunglass: ['solbriller'],
  glasses: ['briller'],
  eyeglasses: ['briller'],
  spectacles: ['briller'],
  eyewear: ['briller'],
  frames: ['stel'],
  frame: ['stel'],
  'optical glasses': ['briller'],
  'reading glasses': ['læsebriller'],
  readers: ['læsebriller'],
  'sports glasses': ['sportsbriller'],
  'blue light': ['blålys', 'blålysbriller'],
  'kids glasses': ['børnebriller'],
  'children glasses': ['børnebriller'],
  kids: ['børn', 'børnebriller'],
  children: ['børn', 'børnebriller'],
  goggles: ['skibriller'],
  'ski goggles': ['skibriller'],
  accessories: ['tilbehør'],
  case: ['etui'],
  lens: ['glas'],
  lenses: ['glas'],
  // Lens properties.
  polarised: ['polariseret'],
  polarized: ['polariseret'],
  polarising: ['polariseret'],
  polarizing: ['polariseret'],
  mirror: ['spejl'],
  mirrored: ['spejl'],
  photochromic: ['fotokromisk'],
  clear: ['klar'],
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
  // Shapes and materials.
  rectangular: ['rektangulær'],
  square: ['kvadratisk'],
  acetate: ['acetat'],
  steel: ['stål'],
  'stainless steel': ['rustfrit stål'],
  recycled: ['genanvendt'],
  plastic: ['plast'],
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

/** A query term: the words as typed (one, or a two-word phrase) and the Danish words that may stand for them. */
export type SearchTerm = { words: readonly string[]; danish: readonly string[] };

/**
 * The query's words as terms, two-word phrases first ("reading glasses" → læsebriller), so that each term is
 * matched by its own words or by any of its Danish equivalents.
 */
export function searchTerms(words: readonly string[]): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? '';
    const next = words[i + 1];
    const phrase = next === undefined ? undefined : EN_TO_DA[`${word} ${next}`.toLowerCase()];
    if (phrase && next !== undefined) {
      terms.push({ words: [word, next], danish: phrase });
      i += 1;
    } else {
      terms.push({ words: [word], danish: EN_TO_DA[word.toLowerCase()] ?? [] });
    }
  }
  return terms;
}
