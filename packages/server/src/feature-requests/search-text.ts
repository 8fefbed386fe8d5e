/**
 * Text as both full-text indexes see it: lower-case, accents stripped, every run of characters
 * that is not a letter or digit turned into one space. Normalising in the app, not in SQL, makes
 * SQLite's FTS5 and PostgreSQL's `simple` parser split the same words.
 *
 * @example
 * ```ts
 * searchText("Dark-mode für Ärzte!"); // "dark mode fur arzte"
 * ```
 */
export function searchText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The words of a search query, each matched as a prefix; at most 12 are kept. */
export function searchTerms(query: string): string[] {
  const text = searchText(query);
  return text === "" ? [] : text.split(" ").slice(0, 12);
}
