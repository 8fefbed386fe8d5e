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

/** A title being typed, as it is compared: its telling words, and whether the last is still being typed. */
export interface TypedTitle {
  /** The title's stems (see {@link titleStems}), in its order; the last is the word being typed when `lastIsPrefix`. */
  terms: string[];
  /** The last term is the start of a word still being typed, of any length, matched as a prefix. */
  lastIsPrefix: boolean;
}

/**
 * The words a title being typed is compared by: its stems (see {@link titleStems}), and the last
 * word as typed so far, kept even when short ("dark mo" keeps "mo", the start of "mode") and
 * matched as the start of a word. At most 12 words of the title are read.
 *
 * @example
 * ```ts
 * typedTitle("Please add a dark mo"); // { terms: ["dark", "mo"], lastIsPrefix: true }
 * ```
 */
export function typedTitle(title: string): TypedTitle {
  const text = searchText(title);
  if (text === "") return { terms: [], lastIsPrefix: false };
  const words = text.split(" ").slice(0, 12);
  const last = words.at(-1)!;
  const stems = titleStems(words.slice(0, -1).join(" "));
  // A last word that is filler ("add") says no more typed than done; one shorter than a stem
  // may be the start of any word, so it is kept as a prefix.
  if (FILLER.has(last)) return { terms: stems, lastIsPrefix: false };
  const typing = last.slice(0, STEM_LETTERS);
  if (stems.includes(typing)) return { terms: stems, lastIsPrefix: false };
  return { terms: [...stems, typing], lastIsPrefix: true };
}

/**
 * How well a request's title answers a title being typed: how many of the typed terms it holds
 * (the last, when still being typed, as the start of one of its stems), then how alike the two
 * are as {@link titleSimilarity} measures them, so a title holding the same words and few
 * others comes before a long one that merely mentions them.
 *
 * @example
 * ```ts
 * typedMatch(typedTitle("dark mo"), titleStems("Dark mode")); // { held: 2, similarity: 1 }
 * ```
 */
export function typedMatch(typed: TypedTitle, stems: readonly string[]): { held: number; similarity: number } {
  if (typed.terms.length === 0 || stems.length === 0) return { held: 0, similarity: 0 };
  const own = new Set(stems);
  const lastIndex = typed.terms.length - 1;
  const held = typed.terms.filter((term, i) => (typed.lastIsPrefix && i === lastIndex ? stems.some((s) => s.startsWith(term)) : own.has(term))).length;
  return { held, similarity: Math.round((200 * held) / (typed.terms.length + own.size)) / 100 };
}
