import { FeedbackException } from "./errors.js";
import type { FeatureRequestListState } from "./feature-request-list-state.js";
import type { SearchKey } from "./search-key.js";

/** The most tags a listing filters on at once (the server's limit). */
export const MAX_TAG_FILTERS = 5;

/** Unique, non-blank, at most {@link MAX_TAG_FILTERS}. */
export const tagList = (tags: readonly string[]): string[] => [...new Set(tags.filter((t) => t !== ""))].slice(0, MAX_TAG_FILTERS);

/** The filter to drop when the server no longer knows the board or a tag the fetch named. */
export function droppedFilter(error: unknown, key: SearchKey): Partial<FeatureRequestListState> | undefined {
  if (!(error instanceof FeedbackException) || error.status !== 400) return undefined;
  if (error.code === "unknown_board" && key.board !== undefined) return { board: undefined };
  if (error.code === "unknown_tag" && (key.tags ?? []).length > 0) return { tags: [] };
  return undefined;
}
