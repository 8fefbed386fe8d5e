import type { FeatureRequestSort } from "./feature-request-page.js";
import type { SearchRateLimiterOptions } from "./search-pacer-options.js";
import type { Timers } from "./timers.js";

/** What {@link FeatureRequestListController.setSettings} may change while the list lives. */
export interface FeatureRequestListSettings {
  /** Items per page. @default 20 */
  pageSize?: number | undefined;
  /** Lists as this user. @default the client's token */
  userToken?: string | undefined;
}

/** Options of {@link FeatureRequestListController}. */
export interface FeatureRequestListOptions extends FeatureRequestListSettings {
  /** @default the server's order */
  sort?: FeatureRequestSort | undefined;
  /** The board's slug to list first. @default every board */
  board?: string | undefined;
  /** Tags' slugs to filter on first. @default none */
  tags?: readonly string[] | undefined;
  /** Spacing of query-bearing fetches and cooldown after a 429. @default { minSpacingMs: 2500, cooldownMs: 60000 } */
  searchRateLimiterOptions?: SearchRateLimiterOptions | undefined;
  /** Quiet time after the last keystroke, in ms. @default 250 */
  debounceMs?: number | undefined;
  /** @default the client's timers */
  timers?: Timers | undefined;
}
