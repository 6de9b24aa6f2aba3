import { sql } from 'drizzle-orm';
import type { SQL, SQLWrapper } from 'drizzle-orm';
import { products } from '../db/schema.ts';
import { meaningfulWords, searchTerms } from './search-vocabulary.ts';
import type { SearchTerm, SearchVocabulary } from './search-vocabulary.ts';

/** Letters and digits in any script (æ, ø, å included); everything else separates words and never reaches tsquery syntax. */
const WORD = /[\p{L}\p{N}]+/gu;

/** The values a search for q binds to the classes' placeholders; undefined when q holds no word. */
export type RelevanceValues = { words: string; prefixes: string; needle: string };

/** Each term as its words or any of its Danish equivalents, all terms required; `suffix` follows every word. */
function termsQuery(terms: readonly SearchTerm[], suffix: string): string {
  return terms.map((term) => {
    const alternatives = [term.words, ...term.danish.map((danish) => danish.match(WORD) ?? [])]
      .filter((alternative) => alternative.length > 0)
      .map((alternative) => alternative.map((word) => `${word}${suffix}`).join(' & '));
    return alternatives.length === 1 ? alternatives[0] : `(${alternatives.map((alternative) => `(${alternative})`).join(' | ')})`;
  }).join(' & ');
}

/**
 * "polarised aviator" → words `(polarised | polariseret) & aviator`, prefixes `(polarised:* | polariseret:*) &
 * aviator:*`: each term matches as typed or through its Danish equivalents, and filler words ("for", "frame")
 * are left out, by the shop's vocabulary (search-vocabulary.ts). Unlowered: PostgreSQL normalises both sides alike.
 */
export function relevanceValues(q: string, vocabulary: SearchVocabulary): RelevanceValues | undefined {
  const typed = q.match(WORD);
  if (!typed) return undefined;
  const words = meaningfulWords(typed, vocabulary);
  const terms = searchTerms(words, vocabulary);
  return { words: termsQuery(terms, ''), prefixes: termsQuery(terms, ':*'), needle: words.join(' ') };
}

/**
 * A colour filter made of the shop's vocabulary words alone, as whole words to find in the stored colour: "black"
 * → `(black) | (sort)`, which "sort" and "mat sort" both hold. Undefined when any word of it is not a vocabulary
 * word: then the filter stays an exact match, so "sort" is "sort", not "mat sort", and a product code such as
 * "Tortoise-12" is not also "Tortoise-12-Light".
 */
export function colourWords(value: string, vocabulary: SearchVocabulary): string | undefined {
  const typed = value.match(WORD);
  if (!typed) return undefined;
  const terms = searchTerms(meaningfulWords(typed, vocabulary), vocabulary);
  return terms.every((term) => term.danish.length > 0) ? termsQuery(terms, '') : undefined;
}

/** The columns the classes read: the table's, or those of a subquery over it. */
type Columns = { nameVector: SQLWrapper; searchVector: SQLWrapper; name: SQLWrapper };

/**
 * One relevance class: the rows of `candidates` that `earlier` (everything the better classes hold) does not
 * hold.
 *
 * `window` is for text conditions, whose frequency the planner cannot know: its statistics keep the common
 * words only, and it guesses any other word (also one that occurs nowhere) to be in 0.5 % of the rows, which
 * at a million products makes it walk the whole newest-first index for a word that is not there. Such a class
 * is first looked for among the window(wanted) newest products (a bounded walk), and only when they do not
 * hold enough, in the GIN index. Undefined: the planner's estimate is good (trigram similarity).
 */
export type RelevanceClass = { candidates: SQL; earlier: SQL | undefined; window: ((wanted: number) => number) | undefined };

/** name_vector is in products_visible_newest_idx, so the walk reads the index only and can go far. */
const indexWalk = (wanted: number) => 5_000 + 50 * wanted;
/** search_vector is read from the table row: a shorter walk. */
const tableWalk = (wanted: number) => 1_000 + 10 * wanted;

/**
 * The relevance classes of a free-text search, best first; a product belongs to the first one it matches:
 * 1. every word is a word of the name ("wayfarer sort" → a black Wayfarer);
 * 2. every word, Danish-stemmed, begins a word of the name ("polar" → "polariseret", "brillerne" → "briller");
 * 3. the same over name, brand and description ("titanium" → the frame material);
 * 4. the name resembles q (pg_trgm word similarity): typos ("aviatr") and word parts ("briller" in "solbriller").
 * Within a class the catalog's stable sort applies (newest first, ties by id; docs/behaviour.md#search).
 * Every word may also be met by its Danish equivalent (relevanceValues). The stemmer is PostgreSQL's own
 * (the `danish` text search configuration, which also drops Danish stop words such as "og" and "med"); the
 * documents stay `simple`, so the stem is matched as a prefix of the words as written.
 *
 * Why classes and not ts_rank: a score summed over every match has to read every matching row before the
 * first page (a word in 40 % of the catalog: 400,000 rows at a million products). A class is one index-served
 * query that stops after a page. Why `candidates` minus `earlier` and not one condition "A and not B": the
 * planner estimates A well from column statistics, but A-and-not-B as if A and B were independent, and would
 * walk the whole newest-first index looking for rows that are not there.
 */
export function relevanceClasses(columns: Columns): RelevanceClass[] {
  const nameWords = sql`${columns.nameVector} @@ to_tsquery('simple', ${sql.placeholder('words')})`;
  const nameStarts = sql`${columns.nameVector} @@ to_tsquery('danish', ${sql.placeholder('prefixes')})`;
  const textStarts = sql`${columns.searchVector} @@ to_tsquery('danish', ${sql.placeholder('prefixes')})`;
  const resembles = sql`lower(${sql.placeholder('needle')}) <% lower(${columns.name})`;
  return [
    { candidates: nameWords, earlier: undefined, window: indexWalk },
    { candidates: nameStarts, earlier: nameWords, window: indexWalk },
    { candidates: textStarts, earlier: nameStarts, window: tableWalk },
    { candidates: resembles, earlier: textStarts, window: undefined },
  ];
}

export const RELEVANCE_CLASSES: readonly RelevanceClass[] = relevanceClasses(products);
