import { searchText } from "../search/search-text.js";

/** Words shorter than this say little about what a title is about ("a", "to", "ui"). */
const MIN_WORD = 3;

/**
 * How many letters of a word are compared: "export", "exports" and "exporting" are one word here,
 * as "notification" and "notifications" are. Cruder than a stemmer, but the same in every
 * language the search index holds, and within the eight letters both indexes key words by.
 */
export const STEM_LETTERS = 6;

/** Words that appear in requests of every kind, so sharing them says nothing ("add", "support"). */
const FILLER = new Set(
  (
    "the and for with from into that this these those when what which where while your our you its are was were not but all any can " +
    "could would should will shall may might must please add adding added allow allowing ability able option options support supporting " +
    "feature features request requests want need needs like make making more better new improve improved improvement use using used " +
    "have has get set let also way app one some via etc"
  ).split(" "),
);

/**
 * The words a title is compared by: normalised as the search index holds them, filler and short
 * words dropped, each cut to its first {@link STEM_LETTERS} letters, each kept once, in the
 * title's order.
 *
 * @example
 * ```ts
 * titleStems("Add exporting to CSV files"); // ["export", "csv", "files"]
 * ```
 */
export function titleStems(title: string): string[] {
  const text = searchText(title);
  if (text === "") return [];
  const stems = new Set<string>();
  for (const word of text.split(" ")) {
    if (word.length < MIN_WORD || FILLER.has(word)) continue;
    stems.add(word.slice(0, STEM_LETTERS));
  }
  return [...stems];
}

/**
 * How alike two titles' stems are: twice the stems they share over the stems they hold
 * (Dice's coefficient), from 0 (none shared) to 1 (the same), rounded to two decimals.
 *
 * @example
 * ```ts
 * titleSimilarity(["dark", "mode"], ["dark", "theme"]); // 0.5
 * ```
 */
export function titleSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const other = new Set(b);
  const shared = new Set(a.filter((stem) => other.has(stem))).size;
  return Math.round((200 * shared) / (new Set(a).size + other.size)) / 100;
}
