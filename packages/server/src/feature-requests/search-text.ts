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

/** The token standing for one id in the SQLite index's `scope` column (ids are `prefix_base32`). */
export function idToken(id: string): string {
  return `x${id.slice(id.indexOf("_") + 1)}`;
}

/** The token of requests every visitor may find: approved and not merged into another. */
export const PUBLIC_TOKEN = "visible";

/**
 * Filter tokens of a request for the SQLite index: its app, its version, and whether the public
 * may see it. Searches match them as `scope:` terms instead of joining the table.
 */
export function scopeTokens(row: { appId: string; versionId: string | null; moderation: string; mergedIntoId: string | null }): string {
  const tokens = [idToken(row.appId)];
  if (row.versionId !== null) tokens.push(idToken(row.versionId));
  if (row.moderation === "approved" && row.mergedIntoId === null) tokens.push(PUBLIC_TOKEN);
  return tokens.join(" ");
}
