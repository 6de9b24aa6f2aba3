import { z } from 'zod';

/**
 * A shop's search vocabulary: the words its shoppers and their agents use, mapped to the words its catalog is
 * written in ("sunglasses" → "solbriller"), and words a search ignores ("for", "frame"). Each query word, or phrase
 * of up to three words, also matches its catalog words; the word as typed stays a candidate, so nothing that
 * matched before stops matching. It is the shop's data (the setting `searchVocabulary`, read through the settings
 * cache), not code: a new shop starts with none, the demo eyewear shop with its own (seed/search-vocabulary.ts).
 *
 * Kept as data rather than as a PostgreSQL synonym dictionary: that needs a file in the server's tsearch_data
 * directory, which a managed PostgreSQL does not allow and the embedded one cannot load.
 */

/** The longest phrase a vocabulary may map, in words. */
export const LONGEST_PHRASE = 3;

export const VocabularyWord = z.string().trim().toLowerCase().min(1).max(60)
  .regex(/^[\p{L}\p{N}]+(?:[ '-][\p{L}\p{N}]+)*$/u, 'letters and digits, words separated by single spaces, hyphens or apostrophes');
export const VocabularyPhrase = VocabularyWord.refine((phrase) => phrase.split(' ').length <= LONGEST_PHRASE, `at most ${LONGEST_PHRASE} words`);

export const SearchVocabulary = z.strictObject({
  words: z.record(VocabularyPhrase, z.array(VocabularyWord).min(1).max(10))
    .refine((words) => Object.keys(words).length <= 2000, 'at most 2000 words or phrases')
    .meta({ description: 'A word or phrase (up to three words) → the catalog words it also matches, e.g. {"black": ["sort"]}.' }),
  ignore: z.array(VocabularyWord).max(500)
    .meta({ description: 'Words a search leaves out ("for", "frame"), unless nothing else is left.' }),
}).meta({ description: 'The shop\'s search vocabulary (empty for a new shop): shoppers\' words → the catalog\'s words, and words a search ignores.' });
export type SearchVocabulary = z.infer<typeof SearchVocabulary>;

export const EMPTY_VOCABULARY: SearchVocabulary = { words: {}, ignore: [] };

/** A query term: the words as typed (one, or a phrase) and the catalog words that may stand for them. */
export type SearchTerm = { words: readonly string[]; danish: readonly string[] };

/** The words a search should match: all but the ignored ones, unless nothing else is left. */
export function meaningfulWords(words: readonly string[], vocabulary: SearchVocabulary): readonly string[] {
  if (vocabulary.ignore.length === 0) return words;
  const ignored = new Set(vocabulary.ignore);
  const kept = words.filter((word) => !ignored.has(word.toLowerCase()));
  return kept.length > 0 ? kept : words;
}

/** The catalog words for a word or phrase; own keys only, so "constructor" is just a word. */
function catalogWordsFor(words: readonly string[], vocabulary: SearchVocabulary): readonly string[] | undefined {
  const key = words.join(' ').toLowerCase();
  return Object.hasOwn(vocabulary.words, key) ? vocabulary.words[key] : undefined;
}

/** The longest phrase starting at words[from] that the vocabulary knows, as a term; else the single word. */
function termAt(words: readonly string[], from: number, vocabulary: SearchVocabulary): SearchTerm {
  for (let length = Math.min(LONGEST_PHRASE, words.length - from); length > 1; length -= 1) {
    const phrase = words.slice(from, from + length);
    const danish = catalogWordsFor(phrase, vocabulary);
    if (danish) return { words: phrase, danish };
  }
  const word = words[from] ?? '';
  return { words: [word], danish: catalogWordsFor([word], vocabulary) ?? [] };
}

/**
 * The query's meaningful words as terms, longest phrases first ("blue light glasses" → blålysbriller), so that
 * each term is matched by its own words or by any of its catalog words.
 */
export function searchTerms(words: readonly string[], vocabulary: SearchVocabulary): SearchTerm[] {
  const terms: SearchTerm[] = [];
  let next = 0;
  while (next < words.length) {
    const term = termAt(words, next, vocabulary);
    terms.push(term);
    next += term.words.length;
  }
  return terms;
}
