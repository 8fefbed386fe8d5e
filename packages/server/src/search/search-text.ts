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

/**
 * The prefix of every word a request contributes to the SQLite index: `x` + the app id's random
 * part for requests the public may see (approved, not merged), `z` + the same for the others.
 * A public search then matches `x<app>word*` prefixes only: one posting list per word, no
 * intersection with an "app" or "visible" token that every row carries. App ids carry 26
 * characters after `app_`, so the prefix is 27 characters long: the FTS5 prefix indexes of
 * migration 0007 (28–35 characters) serve searches for the first one to eight letters of a word.
 */
export function indexPrefix(row: { appId: string; moderation: string; mergedIntoId: string | null }): string {
  return `${row.moderation === "approved" && row.mergedIntoId === null ? "x" : "z"}${appToken(row.appId)}`;
}

function appToken(appId: string): string {
  return appId.slice(appId.indexOf("_") + 1);
}

/** The public and the hidden prefix of an app's words (see {@link indexPrefix}). */
export function appPrefixes(appId: string): { visible: string; hidden: string } {
  return { visible: `x${appToken(appId)}`, hidden: `z${appToken(appId)}` };
}

/** Normalised text with every word prefixed, as the SQLite index stores it. */
export function prefixWords(text: string, prefix: string): string {
  return text === "" ? "" : text.split(" ").map((word) => `${prefix}${word}`).join(" ");
}
