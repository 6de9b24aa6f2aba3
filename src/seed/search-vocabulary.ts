import type { SearchVocabulary } from '../shop/search-vocabulary.ts';

/**
 * The demo eyewear shop's search vocabulary (docs/behaviour.md#search-vocabulary): English shop words → the Danish
 * words its catalog is written in, and the words a search ignores. An agent asked for "polarised black
 * sunglasses" searches in English; the catalog says "polariseret", its frame colour "sort" and its category
 * "Solbriller". It is shop data, stored as the setting `searchVocabulary`: the demo shop starts with it, a new shop
 * with none, and an owner changes it in the console, with settings.update or with an import file. British and
 * American spellings are listed separately.
 */
export const EYEWEAR_VOCABULARY: SearchVocabulary = {
  words: {
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
  },
  // English function words ("sunglasses for kids") and words for parts every pair of glasses has, which qualify a
  // colour ("black frame", "grey lenses") rather than ask for something.
  ignore: [
    'a', 'an', 'the', 'and', 'with', 'in', 'for', 'of', 'on', 'to', 'by', 'pair',
    'colour', 'color', 'coloured', 'colored', 'frame', 'frames', 'lens', 'lenses',
  ],
};
