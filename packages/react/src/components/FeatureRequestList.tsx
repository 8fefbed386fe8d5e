import type { FeatureRequestItem } from "@tidings/client";
import { useState } from "react";
import { useBoards, useTidings, useFeatureRequest, useFeatureRequests, type UseFeatureRequestsOptions, useVersions, useToggleVote } from "@tidings/react-core";
import { ComposeSheet } from "./ComposeSheet.js";
import { FeatureRequestDetail } from "./FeatureRequestDetail.js";
import { ErrorState, Loading, Unavailable } from "./States.js";
import { FeatureRequestRow } from "./FeatureRequestRow.js";
import { RequestToolbar } from "./RequestToolbar.js";
import { TagFilter } from "./Tags.js";
import { TidingsScreen } from "./TidingsScreen.js";

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
      <RequestToolbar
        list={list}
        boards={filtersShown ? boards : []}
        versions={versions.data ?? []}
        onPickBoard={pickBoard}
        onPropose={props.allowPropose === false ? undefined : () => setComposing(true)}
      />
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
