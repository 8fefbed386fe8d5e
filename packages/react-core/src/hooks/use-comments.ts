import type { Comment } from "@tidings/client";
import { useCallback, useRef, useState } from "react";
import { useTidings } from "../context.js";
import { useAsyncData } from "./use-async-data.js";

/** A request's comments and the post operation. */
export interface CommentsState {
  status: "idle" | "loading" | "ready" | "error";
  /** Oldest first: the loaded pages, then comments posted here that no page holds yet. */
  comments: Comment[];
  /** Localized load error. */
  error: string | undefined;
  reload: () => void;
  /** True while the server has comments after the loaded pages. */
  hasMore: boolean;
  loadingMore: boolean;
  /** Appends the next page, skipping ids already shown; a call while one is on its way is ignored. */
  loadMore: () => Promise<void>;
  /** Localized error of the last `loadMore`; cleared by the next. */
  loadMoreError: string | undefined;
  /** Posts a comment, or a reply with `parentId`; resolves true on success. */
  post: (draft: { body: string; parentId?: string | undefined; authorName?: string | undefined }) => Promise<boolean>;
  posting: boolean;
  /** Localized error of the last post; the draft stays with the caller. */
  postError: string | undefined;
}

/** Options of {@link useComments}. */
export interface UseCommentsOptions {
  /** Comments per page. @default 100 */
  pageSize?: number | undefined;
}

/**
 * Comments and replies of one feature request, paged oldest first.
 *
 * @example
 * ```ts
 * const { comments, post, hasMore, loadMore } = useComments(request.id);
 * await post({ body: "+1", parentId: comments[0]?.id });
 * ```
 */
export function useComments(requestId: string, options: UseCommentsOptions = {}): CommentsState {
  const { client, userToken, errorMessage } = useTidings();
  const pageSize = options.pageSize ?? 100;
  const [added, setAdded] = useState<Comment[]>([]);
  const [posting, setPosting] = useState(false);
  const [postError, setPostError] = useState<string | undefined>(undefined);
  /** Pages after the first, with where the next one starts. */
  const [more, setMore] = useState<{ comments: Comment[]; cursor: string | null; hasMore: boolean } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadMoreError, setLoadMoreError] = useState<string | undefined>(undefined);
  /** Bumped by every first-page load, so a later page of an older load is dropped. */
  const epoch = useRef(0);
  const moreInFlight = useRef(false);
  const data = useAsyncData(
    `comments:${requestId}:${pageSize}`,
    async (signal) => {
      const page = await client.listComments(requestId, { signal, limit: pageSize });
      epoch.current += 1;
      setAdded([]);
      setMore(null);
      setLoadMoreError(undefined);
      return page;
    },
    true,
  );

  const first = data.data;
  const cursor = more === null ? (first?.nextCursor ?? null) : more.cursor;
  // Without a cursor there is no way to the next page, whatever the server claims.
  const hasMore = cursor !== null && (more === null ? (first?.hasMore ?? false) : more.hasMore);

  const loadMore = useCallback(async () => {
    if (!hasMore || cursor === null || moreInFlight.current) return;
    moreInFlight.current = true;
    const at = epoch.current;
    setLoadingMore(true);
    setLoadMoreError(undefined);
    try {
      const page = await client.listComments(requestId, { limit: pageSize, cursor });
      if (at !== epoch.current) return;
      setMore((old) => ({ comments: [...(old?.comments ?? []), ...page.comments], cursor: page.nextCursor, hasMore: page.hasMore && page.comments.length > 0 }));
    } catch (e) {
      if (at === epoch.current) setLoadMoreError(errorMessage(e));
    } finally {
      moreInFlight.current = false;
      setLoadingMore(false);
    }
  }, [client, cursor, errorMessage, hasMore, pageSize, requestId]);

  const post = useCallback<CommentsState["post"]>(
    async (draft) => {
      if (posting || draft.body.trim() === "") return false;
      setPosting(true);
      setPostError(undefined);
      try {
        const comment = await client.postComment(requestId, draft, { userToken: userToken ?? undefined });
        setAdded((old) => [...old, comment]);
        return true;
      } catch (e) {
        setPostError(errorMessage(e));
        return false;
      } finally {
        setPosting(false);
      }
    },
    [client, errorMessage, posting, requestId, userToken],
  );

  const comments: Comment[] = [];
  const known = new Set<string>();
  for (const comment of [...(first?.comments ?? []), ...(more?.comments ?? []), ...added]) {
    if (known.has(comment.id)) continue;
    known.add(comment.id);
    comments.push(comment);
  }
  return {
    status: data.status,
    comments,
    error: data.status === "error" ? errorMessage(data.error) : undefined,
    reload: data.reload,
    hasMore,
    loadingMore,
    loadMore,
    loadMoreError,
    post,
    posting,
    postError,
  };
}
