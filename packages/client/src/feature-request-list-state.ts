import type { FeatureRequestItem, FeatureRequestSort } from "./feature-request-page.js";

/** What a feature-request list shows. */
export interface FeatureRequestListState {
  /** `loading` while a first page is on its way (shown items stay until it arrives). */
  status: "idle" | "loading" | "ready" | "error";
  items: FeatureRequestItem[];
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  /** The last failed fetch's error; rate limits show as `rateLimited` instead. */
  error: unknown;
  /** True during the cooldown after a 429: loaded results stay, query searches wait. Show a notice. */
  rateLimited: boolean;
  /** The search text as typed. */
  query: string;
  versionId: string | undefined;
  sort: FeatureRequestSort | undefined;
  /** The board's slug the list shows (undefined: every board the user may see). */
  board: string | undefined;
  /** Tags' slugs a request must all carry to be shown (empty: no tag filter). */
  tags: readonly string[];
}
