import type { FeedbackClient } from "./client.js";
import { FeedbackException, RateLimitedException } from "./errors.js";
import { SearchPacer, type SearchKey, type SearchRateLimiterOptions } from "./search-pacer.js";
import type { Timers } from "./timers.js";
import type { FeatureRequestItem, FeatureRequestSort } from "./types.js";

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

/** The most tags a listing filters on at once (the server's limit). */
export const MAX_TAG_FILTERS = 5;

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

/** `items` followed by those of `more` whose id is not there yet. */
function appendUnique(items: readonly FeatureRequestItem[], more: readonly FeatureRequestItem[]): FeatureRequestItem[] {
  const ids = new Set(items.map((item) => item.id));
  const out = [...items];
  for (const item of more) {
    if (ids.has(item.id)) continue;
    ids.add(item.id);
    out.push(item);
  }
  return out;
}

type PageStart = { offset: number } | { cursor: string };

/** Unique, non-blank, at most {@link MAX_TAG_FILTERS}. */
const tagList = (tags: readonly string[]): string[] => [...new Set(tags.filter((t) => t !== ""))].slice(0, MAX_TAG_FILTERS);

/** The filter to drop when the server no longer knows the board or a tag the fetch named. */
function droppedFilter(error: unknown, key: SearchKey): Partial<FeatureRequestListState> | undefined {
  if (!(error instanceof FeedbackException) || error.status !== 400) return undefined;
  if (error.code === "unknown_board" && key.board !== undefined) return { board: undefined };
  if (error.code === "unknown_tag" && (key.tags ?? []).length > 0) return { tags: [] };
  return undefined;
}

/** Where the page after `page` starts: its cursor, else the offset past it. */
function nextStart(from: PageStart, page: { requests: unknown[]; nextCursor: string | null }): PageStart {
  if (page.nextCursor !== null) return { cursor: page.nextCursor };
  return { offset: ("offset" in from ? from.offset : 0) + page.requests.length };
}

/**
 * The feature-request list without a UI framework: search text and filters (version, board,
 * tags) paced by {@link SearchPacer} (250 ms debounce, 2.5 s between searches, no refetch of the
 * same trimmed query and filters, 60 s cooldown after a 429 or the server's `Retry-After` with
 * results kept), plain listings unpaced, and paging that never repeats an id, one next page at a
 * time. A board or tag the server no longer knows (`unknown_board`, `unknown_tag`: made private,
 * deleted) is dropped from the filters and the list fetched without it. Nothing is fetched before
 * {@link start} or after {@link stop}.
 *
 * @example
 * ```ts
 * const list = new FeatureRequestListController(client);
 * list.subscribe((state) => render(state.items, state.rateLimited));
 * list.start();
 * input.oninput = () => list.setQuery(input.value);
 * ```
 */
export class FeatureRequestListController {
  private state: FeatureRequestListState;
  private readonly listeners = new Set<(state: FeatureRequestListState) => void>();
  private readonly pacer: SearchPacer;
  private pageSize: number;
  private userToken: string | undefined;
  /** Between start() and stop(): inputs fetch. */
  private active = false;
  /** Bumped by every first-page fetch; older answers are dropped. */
  private generation = 0;
  /** The search the shown items answer, and where its next page starts. */
  private shown: { key: SearchKey; next: PageStart } | undefined;

  constructor(
    private readonly client: Pick<FeedbackClient, "listFeatureRequests" | "timers">,
    options: FeatureRequestListOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 20;
    this.userToken = options.userToken;
    this.state = {
      status: "idle",
      items: [],
      total: 0,
      hasMore: false,
      loadingMore: false,
      error: undefined,
      rateLimited: false,
      query: "",
      versionId: undefined,
      sort: options.sort,
      board: options.board === "" ? undefined : options.board,
      tags: tagList(options.tags ?? []),
    };
    this.pacer = new SearchPacer((key) => this.loadFirstPage(key), {
      ...options.searchRateLimiterOptions,
      debounceMs: options.debounceMs,
      timers: options.timers ?? client.timers,
    });
    this.pacer.subscribe(() => this.set({ rateLimited: this.pacer.rateLimited }));
  }

  /** The current state (what `subscribe` listeners receive). */
  getState(): FeatureRequestListState {
    return this.state;
  }

  /** Calls `listener` with every new state; returns the unsubscribe function. */
  subscribe(listener: (state: FeatureRequestListState) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Loads the first page for the current inputs at once (a plain listing is never paced), and
   * lets later inputs fetch. Call it again after {@link stop} to resume.
   */
  start(): void {
    this.active = true;
    this.wantInputs();
    this.pacer.refresh();
  }

  /**
   * Stops fetching (a feature flag went off, the screen went away): answers on their way are
   * dropped and inputs are only kept until {@link start}. The pacing history stays, so a restart
   * still honours a running cooldown.
   */
  stop(): void {
    this.active = false;
    this.generation += 1;
  }

  /** Sets the search text; searches are debounced and paced to the server's rate limit. */
  setQuery(query: string): void {
    this.set({ query });
    this.wantInputs();
  }

  /** Filters by a version (undefined: every version) and lists again. */
  setVersionId(versionId: string | undefined): void {
    this.set({ versionId });
    this.wantInputs();
  }

  /** Shows one board's requests (its slug; undefined: every board the user may see) and lists again. */
  setBoard(board: string | undefined): void {
    this.set({ board: board === "" ? undefined : board });
    this.wantInputs();
  }

  /**
   * Shows only requests carrying every one of these tags (slugs; empty: no tag filter) and lists
   * again. Repeats are dropped, and only the first {@link MAX_TAG_FILTERS} are kept.
   */
  setTags(tags: readonly string[]): void {
    this.set({ tags: tagList(tags) });
    this.wantInputs();
  }

  /** Another order is another listing: fetched again, paced like any search. */
  setSort(sort: FeatureRequestSort | undefined): void {
    this.set({ sort });
    if (this.active) this.pacer.refresh();
  }

  /**
   * Another user (a host's login or logout) or page size: answers on their way are dropped and the
   * list is fetched again as that user, paced like any search. Unchanged settings do nothing.
   */
  setSettings(settings: FeatureRequestListSettings): void {
    const pageSize = settings.pageSize ?? this.pageSize;
    if (settings.userToken === this.userToken && pageSize === this.pageSize) return;
    this.userToken = settings.userToken;
    this.pageSize = pageSize;
    this.generation += 1;
    if (this.active) this.pacer.refresh();
  }

  /** Pull to refresh: fetches the current inputs again, paced like any search. */
  refresh(): void {
    if (this.active) this.pacer.refresh();
  }

  /** Replaces fields of the shown item `id` (a vote, a new comment count); other items stay as they are. */
  updateItem(id: string, patch: Partial<FeatureRequestItem>): void {
    if (!this.state.items.some((item) => item.id === id)) return;
    this.set({ items: this.state.items.map((item) => (item.id === id ? { ...item, ...patch } : item)) });
  }

  /**
   * Appends the next page, skipping ids already shown. One page at a time: calls while one is on
   * its way (a list's end reached twice in one tick) do nothing, as they do during a search cooldown.
   * A 429 starts the search cooldown (`rateLimited`) instead of an error.
   */
  async loadMore(): Promise<void> {
    const shown = this.shown;
    const { hasMore, loadingMore } = this.state;
    if (!this.active || shown === undefined || !hasMore || loadingMore || (shown.key.query !== "" && this.pacer.rateLimited)) return;
    const generation = this.generation;
    this.set({ loadingMore: true });
    try {
      const page = await this.list(shown.key, shown.next);
      if (generation !== this.generation) return;
      this.shown = { key: shown.key, next: nextStart(shown.next, page) };
      // An empty page ends the paging even if the server claims more.
      this.set({ items: appendUnique(this.state.items, page.requests), total: page.total, hasMore: page.hasMore && page.requests.length > 0, error: undefined });
    } catch (error) {
      if (error instanceof RateLimitedException) this.pacer.noteRateLimited(error);
      else if (generation === this.generation) this.set({ error });
    } finally {
      this.set({ loadingMore: false });
    }
  }

  /** Stops the pacer's timers and forgets the listeners; answers still on their way are dropped. */
  dispose(): void {
    this.generation += 1;
    this.pacer.dispose();
    this.listeners.clear();
  }

  /** Hands the current inputs to the pacer, which fetches them when they differ from the shown ones. */
  private wantInputs(): void {
    const { query, versionId, board, tags } = this.state;
    if (this.active) this.pacer.update(query, versionId, { board, tags });
  }

  private list(key: SearchKey, from: PageStart) {
    return this.client.listFeatureRequests({
      q: key.query,
      versionId: key.versionId,
      board: key.board,
      tags: key.tags,
      sort: this.state.sort,
      limit: this.pageSize,
      userToken: this.userToken,
      ...from,
    });
  }

  /** The pacer's fetch: rejects on failure so it can start a cooldown or allow a retry. */
  private async loadFirstPage(key: SearchKey): Promise<void> {
    // A timer armed before stop(): start() fetches the inputs again.
    if (!this.active) return;
    const generation = ++this.generation;
    this.set({ status: "loading" });
    try {
      const page = await this.list(key, { offset: 0 });
      if (generation !== this.generation) return;
      this.shown = { key, next: nextStart({ offset: 0 }, page) };
      this.set({ status: "ready", items: appendUnique([], page.requests), total: page.total, hasMore: page.hasMore && page.requests.length > 0, error: undefined });
    } catch (error) {
      if (generation === this.generation) {
        const dropped = droppedFilter(error, key);
        if (dropped !== undefined) {
          // A board made private or a tag deleted since it was chosen: list without it.
          this.set(dropped);
          this.wantInputs();
        } else {
          // A 429 keeps what is shown; the cooldown's `rateLimited` is the notice.
          this.set(error instanceof RateLimitedException ? { status: "ready" } : { status: "error", error });
        }
      }
      throw error;
    }
  }

  private set(patch: Partial<FeatureRequestListState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener(this.state);
  }
}
