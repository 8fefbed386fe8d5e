import {
  FeatureRequestListController,
  type FeatureRequestItem,
  type FeatureRequestSort,
  type SearchPacerOptions,
} from "@tidings/client";
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { useTidings } from "../context.js";
import { useToggleVote, type ToggleVote } from "./use-toggle-vote.js";

/** Options of {@link useFeatureRequests}. */
export interface UseFeatureRequestsOptions {
  /** Page size. @default 20 */
  pageSize?: number | undefined;
  /** Initial sort. @default "top" */
  sort?: FeatureRequestSort | undefined;
  /** Search pacing tuning (`minSpacingMs`, `cooldownMs`, `debounceMs`). @default the SDK's */
  searchRateLimiterOptions?: Omit<SearchPacerOptions, "timers"> | undefined;
}

/** The listing, its search/filter/sort inputs and votes. */
export interface FeatureRequestsState {
  enabled: boolean;
  status: "idle" | "loading" | "ready" | "error";
  items: FeatureRequestItem[];
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  /** Localized error of the last failed fetch (not rate limits: see `rateLimited`). */
  error: string | undefined;
  /** True during the cooldown after a 429: results stay, query searches wait. */
  rateLimited: boolean;
  query: string;
  setQuery: (text: string) => void;
  versionId: string | undefined;
  setVersionId: (id: string | undefined) => void;
  sort: FeatureRequestSort;
  setSort: (sort: FeatureRequestSort) => void;
  /** Appends the next page without repeating ids; ignored without more pages or while one is on its way. */
  loadMore: () => Promise<void>;
  refresh: () => void;
  /** Replaces an item's fields (e.g. after a comment). */
  updateItem: (id: string, patch: Partial<FeatureRequestItem>) => void;
  votes: ToggleVote;
}

/**
 * The feature-request listing of the provider's client: a `FeatureRequestListController` of `@tidings/client` (one
 * per client; search paced by the SDK's SearchPacer — rule 12: 250 ms debounce, 2.5 s between
 * searches, no refetch of the same query, 60 s cooldown after a 429 with results kept — a version
 * filter, sort and load more) fed the provider's user token, its errors localized, with optimistic
 * votes. Nothing is fetched while the `featureRequests` flag is off or the config is not settled.
 *
 * @example
 * ```tsx
 * const list = useFeatureRequests();
 * <input value={list.query} onChange={(e) => list.setQuery(e.target.value)} />
 * ```
 */
export function useFeatureRequests(options: UseFeatureRequestsOptions = {}): FeatureRequestsState {
  const { client, userToken, configSettled, isEnabled, errorMessage } = useTidings();
  const enabled = isEnabled("featureRequests");
  const settings = { userToken: userToken ?? undefined, pageSize: options.pageSize ?? 20 };
  const tuning = options.searchRateLimiterOptions;
  const create = () => ({
    client,
    controller: new FeatureRequestListController(client, {
      ...settings,
      sort: options.sort ?? "top",
      searchRateLimiterOptions: tuning,
      debounceMs: tuning?.debounceMs,
    }),
  });
  const [owned, setOwned] = useState(create);
  // A new client gets a new list; the old one stops with the effect below.
  if (owned.client !== client) setOwned(create());
  const { controller } = owned;

  // A host's login or logout lists again as that user.
  useEffect(
    () => controller.setSettings({ userToken: settings.userToken, pageSize: settings.pageSize }),
    [controller, settings.userToken, settings.pageSize],
  );
  useEffect(() => {
    if (!enabled || !configSettled) return;
    controller.start();
    return () => controller.stop();
  }, [controller, enabled, configSettled]);

  const subscribe = useMemo(() => (onChange: () => void) => controller.subscribe(onChange), [controller]);
  const state = useSyncExternalStore(subscribe, () => controller.getState());

  // Stable for the list's life, like the setters of React state.
  const actions = useMemo(
    () => ({
      setQuery: (text: string) => controller.setQuery(text),
      setVersionId: (id: string | undefined) => controller.setVersionId(id),
      setSort: (sort: FeatureRequestSort) => controller.setSort(sort),
      loadMore: () => controller.loadMore(),
      refresh: () => controller.refresh(),
      updateItem: (id: string, patch: Partial<FeatureRequestItem>) => controller.updateItem(id, patch),
    }),
    [controller],
  );
  const votes = useToggleVote(actions.updateItem);

  return {
    ...actions,
    enabled,
    status: state.status,
    items: state.items,
    total: state.total,
    hasMore: state.hasMore,
    loadingMore: state.loadingMore,
    error: state.error === undefined ? undefined : errorMessage(state.error),
    rateLimited: state.rateLimited,
    query: state.query,
    versionId: state.versionId,
    sort: state.sort ?? "top",
    votes,
  };
}
