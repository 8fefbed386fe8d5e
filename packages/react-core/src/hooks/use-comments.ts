import type { Comment } from "@tidings/client";
import { useCallback, useState } from "react";
import { useTidings } from "../context.js";
import { useAsyncData } from "./use-async-data.js";

/** A request's comments and the post operation. */
export interface CommentsState {
  status: "idle" | "loading" | "ready" | "error";
  comments: Comment[];
  /** Localized load error. */
  error: string | undefined;
  reload: () => void;
  /** Posts a comment, or a reply with `parentId`; resolves true on success. */
  post: (draft: { body: string; parentId?: string | undefined; authorName?: string | undefined }) => Promise<boolean>;
  posting: boolean;
  /** Localized error of the last post; the draft stays with the caller. */
  postError: string | undefined;
}

/**
 * Comments and replies of one feature request.
 *
 * @example
 * ```ts
 * const { comments, post } = useComments(request.id);
 * await post({ body: "+1", parentId: comments[0]?.id });
 * ```
 */
export function useComments(requestId: string): CommentsState {
  const { client, userToken, errorMessage } = useTidings();
  const [added, setAdded] = useState<Comment[]>([]);
  const [posting, setPosting] = useState(false);
  const [postError, setPostError] = useState<string | undefined>(undefined);
  const data = useAsyncData(
    `comments:${requestId}`,
    async (signal) => {
      const page = await client.listComments(requestId, { signal, limit: 100 });
      setAdded([]);
      return page.comments;
    },
    true,
  );

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

  const loaded = data.data ?? [];
  const known = new Set(loaded.map((c) => c.id));
  return {
    status: data.status,
    comments: [...loaded, ...added.filter((c) => !known.has(c.id))],
    error: data.status === "error" ? errorMessage(data.error) : undefined,
    reload: data.reload,
    post,
    posting,
    postError,
  };
}
