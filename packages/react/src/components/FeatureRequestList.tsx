import type { FeatureRequestItem, FeatureRequestSort } from "@tidings/client";
import { useId, useState } from "react";
import { useBoards, useTidings, useFeatureRequest, useFeatureRequests, type UseFeatureRequestsOptions, useVersions, type ToggleVote, useToggleVote } from "@tidings/react-core";
import { ComposeSheet } from "./ComposeSheet.js";
import { FeatureRequestDetail } from "./FeatureRequestDetail.js";
import { ErrorState, Loading, Unavailable } from "./States.js";
import { TagChips, TagFilter } from "./Tags.js";
import { TidingsScreen } from "./TidingsScreen.js";
import { VoteButton } from "./VoteButton.js";

/** One request in a list: vote, title, excerpt, badges and tags. */
export function FeatureRequestRow(props: { item: FeatureRequestItem; votes: ToggleVote; onOpen?: ((item: FeatureRequestItem) => void) | undefined }) {
  const { t } = useTidings();
  const { item } = props;
  return (
    <li className="td-card td-request">
      <VoteButton item={item} votes={props.votes} />
      <div className="td-request-body">
        {props.onOpen === undefined ? (
          <h3 className="td-request-title">{item.title}</h3>
        ) : (
          <h3 className="td-request-title">
            <button type="button" className="td-link" onClick={() => props.onOpen?.(item)}>
              {item.title}
            </button>
          </h3>
        )}
        {item.description ? <p className="td-muted td-excerpt">{item.description}</p> : null}
        <div className="td-badges">
          {!item.approved ? <span className="td-badge td-badge-pending">{t("requests.pending")}</span> : null}
          {item.columnName ? (
            <span className="td-badge" data-color={item.columnColor ?? undefined}>
              {item.columnName}
            </span>
          ) : null}
          {item.versionLabel ? <span className="td-badge">{item.versionLabel}</span> : null}
          <TagChips tags={item.tags} />
          {item.commentCount ? <span className="td-muted td-small">{t("requests.comments", { count: item.commentCount })}</span> : null}
        </div>
      </div>
    </li>
  );
}

/** Props of {@link FeatureRequestList}. */
export interface FeatureRequestListProps extends UseFeatureRequestsOptions {
  /** Show the "Suggest a feature" button and sheet. @default true */
  allowPropose?: boolean | undefined;
  /** Open requests in the built-in detail view. @default true */
  showDetail?: boolean | undefined;
  /** Makes comment authors in the detail open their profile (the portal shows the profile screen). */
  onOpenProfile?: ((userId: string, name?: string) => void) | undefined;
  /**
   * The request shown in the detail (e.g. from the address), or null for the list; without it the
   * list keeps its own. A request not in the loaded page is read by id.
   */
  openRequestId?: string | null | undefined;
  /** Called when the user opens a request (or goes back to the list with null). */
  onOpenRequest?: ((item: FeatureRequestItem | null) => void) | undefined;
  /** Called when the user picks a board in the switcher (undefined: every board), e.g. to put it in the address. */
  onBoardChange?: ((slug: string | undefined) => void) | undefined;
  /**
   * Show the board switcher and the tag filter; turn them off when the page draws its own and
   * passes the choice as `board` and `tags`. @default true
   */
  showBoardAndTagFilters?: boolean | undefined;
}

/**
 * Feature requests with paced search (rule 12) and its rate-limit notice, a board switcher (when
 * the user may see more than one board), a version filter, sort, a tag filter, load more, votes,
 * pending-review badges and tags, the compose sheet (to the board shown) and the request detail.
 *
 * @example
 * ```tsx
 * <FeatureRequestList />
 * ```
 */
export function FeatureRequestList(props: FeatureRequestListProps) {
  const { t, errorMessage } = useTidings();
  const list = useFeatureRequests(props);
  const versions = useVersions();
  const boards = useBoards().data ?? [];
  const [composing, setComposing] = useState(false);
  const [ownOpenId, setOwnOpenId] = useState<string | null>(null);
  const openId = props.openRequestId === undefined ? ownOpenId : props.openRequestId;
  const setOpen = (item: FeatureRequestItem | null) => {
    setOwnOpenId(item?.id ?? null);
    props.onOpenRequest?.(item);
  };
  const listed = openId === null ? undefined : list.items.find((i) => i.id === openId);
  // Opened at its address before the list has it: read by id, with the user's votes applied here.
  const fetched = useFeatureRequest(openId !== null && listed === undefined && props.showDetail !== false ? openId : null);
  const [fetchedPatch, setFetchedPatch] = useState<{ id: string; patch: Partial<FeatureRequestItem> } | null>(null);
  const patchFetched = (id: string, patch: Partial<FeatureRequestItem>) =>
    setFetchedPatch((current) => ({ id, patch: { ...(current?.id === id ? current.patch : {}), ...patch } }));
  const fetchedVotes = useToggleVote(patchFetched);
  const searchId = useId();
  const versionId = useId();
  const sortId = useId();
  const boardId = useId();

  if (!list.enabled) {
    return (
      <TidingsScreen label={t("requests.title")}>
        <Unavailable />
      </TidingsScreen>
    );
  }
  const fromId =
    listed === undefined && fetched.data !== undefined && fetched.data.id === openId
      ? { ...fetched.data, ...(fetchedPatch?.id === openId ? fetchedPatch.patch : {}) }
      : undefined;
  const open = listed ?? fromId;
  if (openId !== null && props.showDetail !== false) {
    if (open === undefined) {
      return (
        <TidingsScreen label={t("requests.title")}>
          <button type="button" className="td-link" onClick={() => setOpen(null)}>
            ← {t("common.back")}
          </button>
          {fetched.status === "error" ? <ErrorState message={errorMessage(fetched.error)} onRetry={fetched.reload} /> : <Loading />}
        </TidingsScreen>
      );
    }
    return (
      <TidingsScreen label={open.title}>
        <FeatureRequestDetail
          item={open}
          votes={listed !== undefined ? list.votes : fetchedVotes}
          onBack={() => setOpen(null)}
          onChange={(patch) => (listed !== undefined ? list.updateItem(open.id, patch) : patchFetched(open.id, patch))}
          onOpenProfile={props.onOpenProfile}
        />
      </TidingsScreen>
    );
  }
  const searching = list.query.trim() !== "" || list.tags.length > 0;
  const board = boards.find((b) => b.slug === list.board);
  const filtersShown = props.showBoardAndTagFilters !== false;
  const pickBoard = (slug: string | undefined) => {
    list.setBoard(slug);
    props.onBoardChange?.(slug);
  };
  return (
    <TidingsScreen label={t("requests.title")}>
      <div className="td-toolbar">
        {boards.length > 1 && filtersShown ? (
          <>
            <label className="td-visually-hidden" htmlFor={boardId}>
              {t("requests.board")}
            </label>
            <select id={boardId} className="td-input" value={list.board ?? ""} onChange={(e) => pickBoard(e.target.value === "" ? undefined : e.target.value)}>
              <option value="">{t("requests.allBoards")}</option>
              {boards.map((b) => (
                <option key={b.id} value={b.slug}>
                  {b.name}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <label className="td-visually-hidden" htmlFor={searchId}>
          {t("requests.search")}
        </label>
        <input
          id={searchId}
          type="search"
          className="td-input td-search"
          placeholder={t("requests.searchPlaceholder")}
          value={list.query}
          onChange={(e) => list.setQuery(e.target.value)}
        />
        {(versions.data ?? []).length > 0 ? (
          <>
            <label className="td-visually-hidden" htmlFor={versionId}>
              {t("requests.version")}
            </label>
            <select id={versionId} className="td-input" value={list.versionId ?? ""} onChange={(e) => list.setVersionId(e.target.value === "" ? undefined : e.target.value)}>
              <option value="">{t("requests.allVersions")}</option>
              {(versions.data ?? []).map((v) => (
                <option key={v.id} value={v.id}>
                  {v.label}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <label className="td-visually-hidden" htmlFor={sortId}>
          {t("requests.sort")}
        </label>
        <select id={sortId} className="td-input" value={list.sort} onChange={(e) => list.setSort(e.target.value as FeatureRequestSort)}>
          <option value="top">{t("requests.sortTop")}</option>
          <option value="newest">{t("requests.sortNewest")}</option>
          <option value="trending">{t("requests.sortTrending")}</option>
        </select>
        {props.allowPropose === false ? null : (
          <button type="button" className="td-button td-primary" onClick={() => setComposing(true)}>
            {t("requests.propose")}
          </button>
        )}
      </div>
      {board?.description ? <p className="td-muted td-small">{board.description}</p> : null}
      {filtersShown ? <TagFilter list={list} /> : null}
      {list.rateLimited ? (
        <p className="td-notice" role="status">
          {t("requests.rateLimited")}
        </p>
      ) : null}
      {list.votes.error ? (
        <p className="td-notice td-danger" role="alert">
          {list.votes.error}
        </p>
      ) : null}
      {list.status === "error" && list.items.length === 0 ? (
        <ErrorState message={list.error ?? errorMessage(undefined)} onRetry={list.refresh} />
      ) : list.items.length === 0 && list.status !== "ready" ? (
        <Loading />
      ) : list.items.length === 0 ? (
        <p className="td-state td-muted">{searching ? t("requests.noResults") : t("requests.empty")}</p>
      ) : (
        <>
          <p className="td-muted td-small" aria-live="polite">
            {t("requests.count", { count: list.total })}
          </p>
          <ul className="td-list" aria-busy={list.status === "loading"}>
            {list.items.map((item) => (
              <FeatureRequestRow key={item.id} item={item} votes={list.votes} onOpen={props.showDetail === false ? undefined : (i) => setOpen(i)} />
            ))}
          </ul>
          {list.hasMore ? (
            <button type="button" className="td-button td-block" disabled={list.loadingMore} onClick={() => void list.loadMore()}>
              {list.loadingMore ? t("common.loading") : t("requests.loadMore")}
            </button>
          ) : null}
        </>
      )}
      {composing ? (
        <ComposeSheet
          board={list.board}
          onClose={() => setComposing(false)}
          onOpenRequest={
            props.showDetail === false
              ? undefined
              : (item) => {
                  setComposing(false);
                  setOpen(item);
                }
          }
          onSubmitted={() => {
            list.refresh();
          }}
        />
      ) : null}
    </TidingsScreen>
  );
}
