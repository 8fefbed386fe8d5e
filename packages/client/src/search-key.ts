/** What a fetch is for: the trimmed search text ("" = plain listing) and the filters. */
export interface SearchKey {
  query: string;
  versionId: string | undefined;
  /** A board's slug (undefined: every board). */
  board?: string | undefined;
  /** Tags' slugs, every one required (absent or empty: no tag filter). */
  tags?: readonly string[] | undefined;
}

/** The board and tag filters of a {@link SearchKey}. */
export type SearchFilters = Pick<SearchKey, "board" | "tags">;

/** The identity of a key: equal for the same query, version, board and tags in any order. */
export const keyOf = (key: SearchKey) => [key.query, key.versionId ?? "", key.board ?? "", ...[...(key.tags ?? [])].sort()].join("\u0000");
