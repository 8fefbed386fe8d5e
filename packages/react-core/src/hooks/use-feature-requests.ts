import {
  FeatureRequestListController,
  MAX_TAG_FILTERS,
  type FeatureRequestItem,
  type FeatureRequestSort,
  type PublicTag,
  type SearchPacerOptions,
} from "@tidings/client";
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
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
  /**
   * The board listed (its slug; null: every board the user may see). Given, it is followed when it
   * changes (an address naming a board); the board switcher's `setBoard` still changes the list.
   * @default every board
   */
  board?: string | null | undefined;
  /** The tags' slugs filtered on, followed when they change like `board`. @default no tag filter */
  tags?: readonly string[] | undefined;
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
  /** The board's slug listed, or undefined for every board. */
  board: string | undefined;
  setBoard: (slug: string | undefined) => void;
  /** The tags' slugs a request must all carry to be listed (empty: no tag filter). */
  tags: readonly string[];
  /** Adds a tag to the filter, or takes it off; at most 5 are kept. */
  toggleTag: (slug: string) => void;
  setTags: (slugs: readonly string[]) => void;
  /**
   * What a tag filter offers: the tags seen on the requests listed so far, by name (they stay
   * while the filter narrows the list), then any tag filtered on but not seen, by its slug.
   */
  tagChoices: readonly PublicTag[];
  /** Appends the next page without repeating ids; ignored without more pages or while one is on its way. */
  loadMore: () => Promise<void>;
  refresh: () => void;
  /** Replaces an item's fields (e.g. after a comment). */
  updateItem: (id: string, patch: Partial<FeatureRequestItem>) => void;
  votes: ToggleVote;
}

/** `known` with the tags of `items` it lacks, by name; `known` itself when there are none. */
function withTagsOf(known: readonly PublicTag[], items: readonly FeatureRequestItem[]): readonly PublicTag[] {
  const slugs = new Set(known.map((tag) => tag.slug));
  const added = items.flatMap((item) => item.tags ?? []).filter((tag) => !slugs.has(tag.slug) && slugs.add(tag.slug));
  return added.length === 0 ? known : [...known, ...added].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The feature-request listing of the provider's client: a `FeatureRequestListController` of `@tidings/client` (one
 * per client; search paced by the SDK's SearchPacer — rule 12: 250 ms debounce, 2.5 s between
 * searches, no refetch of the same query, 60 s cooldown after a 429 with results kept — a version
 * filter, board and tag filters, sort and load more) fed the provider's user token, its errors
 * localized, with optimistic votes. Nothing is fetched while the `featureRequests` flag is off or the config is not settled.
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
      board: options.board ?? undefined,
      tags: options.tags,
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

  // Filters given by the host (an address) are followed when they change; the list starts on them.
  const givenBoard = options.board;
  const givenTags = options.tags === undefined ? undefined : options.tags.join("\u0000");
  const followed = useRef({ board: givenBoard, tags: givenTags });
  useEffect(() => {
    if (givenBoard !== undefined && followed.current.board !== givenBoard) controller.setBoard(givenBoard ?? undefined);
    if (givenTags !== undefined && followed.current.tags !== givenTags) controller.setTags(givenTags === "" ? [] : givenTags.split("\u0000"));
    followed.current = { board: givenBoard, tags: givenTags };
  }, [controller, givenBoard, givenTags]);

  const subscribe = useMemo(() => (onChange: () => void) => controller.subscribe(onChange), [controller]);
  const state = useSyncExternalStore(subscribe, () => controller.getState());
  const [knownTags, setKnownTags] = useState<readonly PublicTag[]>([]);
  useEffect(() => setKnownTags((known) => withTagsOf(known, state.items)), [state.items]);
  const tagChoices = useMemo(
    () => [...knownTags, ...state.tags.filter((slug) => !knownTags.some((tag) => tag.slug === slug)).map((slug) => ({ name: slug, slug, color: null }))],
    [knownTags, state.tags],
  );

  // Stable for the list's life, like the setters of React state.
  const actions = useMemo(
    () => ({
      setQuery: (text: string) => controller.setQuery(text),
      setVersionId: (id: string | undefined) => controller.setVersionId(id),
      setSort: (sort: FeatureRequestSort) => controller.setSort(sort),
      setBoard: (slug: string | undefined) => controller.setBoard(slug),
      setTags: (slugs: readonly string[]) => controller.setTags(slugs),
      toggleTag: (slug: string) => {
        const tags = controller.getState().tags;
        if (tags.includes(slug)) controller.setTags(tags.filter((t) => t !== slug));
        else if (tags.length < MAX_TAG_FILTERS) controller.setTags([...tags, slug]);
      },
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
    board: state.board,
    tags: state.tags,
    tagChoices,
    votes,
  };
}
