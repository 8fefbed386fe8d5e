import {
  RateLimitedException,
  SearchPacer,
  type FeatureRequestItem,
  type FeatureRequestSort,
  type SearchKey,
  type SearchPacerOptions,
} from "@tidings/client";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTidings } from "../context.js";
import { useToggleVote, type ToggleVote, type VotePatch } from "./use-toggle-vote.js";

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
 * The feature-request listing with search paced by the SDK's {@link SearchPacer} (rule 12: 250 ms
 * debounce, 2.5 s between searches, no refetch of the same query, 60 s cooldown after a 429 with
 * results kept), a version filter, sort, load more and optimistic votes. Nothing is fetched while
 * the `featureRequests` flag is off.
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
  const pageSize = options.pageSize ?? 20;
  const [items, setItems] = useState<FeatureRequestItem[]>([]);
  const [total, setTotal] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<FeatureRequestsState["status"]>("idle");
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [rateLimited, setRateLimited] = useState(false);
  const [query, setQueryState] = useState("");
  const [versionId, setVersionState] = useState<string | undefined>(undefined);
  const [sort, setSortState] = useState<FeatureRequestSort>(options.sort ?? "top");

  const latest = useRef({ query, versionId, sort, userToken, key: undefined as SearchKey | undefined });
  latest.current = { ...latest.current, query, versionId, sort, userToken };
  const generation = useRef(0);
  const pacerRef = useRef<SearchPacer | null>(null);
  const tuning = options.searchRateLimiterOptions;

  useEffect(() => {
    if (!enabled || !configSettled) return;
    const run = async (key: SearchKey) => {
      const gen = ++generation.current;
      setStatus("loading");
      try {
        const page = await client.listFeatureRequests({
          q: key.query,
          versionId: key.versionId,
          sort: latest.current.sort,
          limit: pageSize,
          userToken: latest.current.userToken ?? undefined,
        });
        if (gen !== generation.current) return;
        latest.current.key = key;
        setItems(page.requests);
        setTotal(page.total);
        setHasMore(page.hasMore);
        setNextCursor(page.nextCursor);
        setError(undefined);
        setStatus("ready");
      } catch (e) {
        if (gen === generation.current) {
          // A 429 keeps what is shown; the pacer's cooldown drives the notice.
          if (e instanceof RateLimitedException) setStatus("ready");
          else {
            setError(errorMessage(e));
            setStatus("error");
          }
        }
        throw e;
      }
    };
    const pacer = new SearchPacer(run, { ...tuning, timers: client.timers });
    pacerRef.current = pacer;
    const unsubscribe = pacer.subscribe(() => setRateLimited(pacer.rateLimited));
    pacer.update(latest.current.query, latest.current.versionId);
    pacer.refresh();
    return () => {
      unsubscribe();
      pacer.dispose();
      pacerRef.current = null;
      generation.current += 1;
    };
    // The pacer lives as long as the client, identity and gate; inputs go through update().
  }, [client, enabled, configSettled, userToken, pageSize]);

  const setQuery = useCallback((text: string) => {
    setQueryState(text);
    pacerRef.current?.update(text, latest.current.versionId);
  }, []);
  const setVersionId = useCallback((id: string | undefined) => {
    setVersionState(id);
    pacerRef.current?.update(latest.current.query, id);
  }, []);
  const setSort = useCallback((next: FeatureRequestSort) => {
    setSortState(next);
    latest.current.sort = next;
    pacerRef.current?.refresh();
  }, []);
  const refresh = useCallback(() => pacerRef.current?.refresh(), []);

  // A ref, not the state: two calls in one tick (a list's end reached twice) must not both fetch.
  const moreInFlight = useRef(false);
  const loadMore = useCallback(async () => {
    const key = latest.current.key;
    if (key === undefined || !hasMore || moreInFlight.current) return;
    moreInFlight.current = true;
    const gen = generation.current;
    setLoadingMore(true);
    try {
      const page = await client.listFeatureRequests({
        q: key.query,
        versionId: key.versionId,
        sort: latest.current.sort,
        limit: pageSize,
        ...(nextCursor === null ? { offset: items.length } : { cursor: nextCursor }),
        userToken: latest.current.userToken ?? undefined,
      });
      if (gen !== generation.current) return;
      setItems((old) => {
        const seen = new Set(old.map((i) => i.id));
        return [...old, ...page.requests.filter((i) => !seen.has(i.id))];
      });
      setTotal(page.total);
      setHasMore(page.hasMore && page.requests.length > 0);
      setNextCursor(page.nextCursor);
    } catch (e) {
      // A 429 on a later page starts the same cooldown (and notice) as one on a search.
      if (e instanceof RateLimitedException) pacerRef.current?.noteRateLimited(e);
      else if (gen === generation.current) setError(errorMessage(e));
    } finally {
      moreInFlight.current = false;
      setLoadingMore(false);
    }
  }, [client, errorMessage, hasMore, items.length, nextCursor, pageSize]);

  const updateItem = useCallback((id: string, patch: Partial<FeatureRequestItem>) => {
    setItems((old) => old.map((item) => (item.id === id ? { ...item, ...patch } : item)));
  }, []);
  const applyVote = useCallback((id: string, patch: VotePatch) => updateItem(id, patch), [updateItem]);
  const votes = useToggleVote(applyVote);

  return {
    enabled,
    status,
    items,
    total,
    hasMore,
    loadingMore,
    error,
    rateLimited,
    query,
    setQuery,
    versionId,
    setVersionId,
    sort,
    setSort,
    loadMore,
    refresh,
    updateItem,
    votes,
  };
}
