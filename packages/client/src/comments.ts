import { compact, nonBlank } from "./blank.js";
import type { UserCallOptions, UserPostOptions } from "./call-options.js";
import { enc, type ClientSession } from "./session.js";
import type { Comment, CommentPage } from "./types.js";

/** A comment or reply to post; `parentId` makes it a reply in that thread. */
export interface CommentDraft {
  body: string;
  parentId?: string | undefined;
  authorName?: string | undefined;
  authorEmail?: string | undefined;
}

/** `GET /feature-requests/<id>/comments`, oldest first. */
export async function listComments(
  s: ClientSession,
  id: string,
  options: UserCallOptions & { limit?: number | undefined; cursor?: string | undefined },
): Promise<CommentPage> {
  const data = await s.json<Partial<CommentPage>>(
    {
      method: "GET",
      path: `/api/v1/feature-requests/${enc(id)}/comments`,
      query: { limit: options.limit, cursor: options.cursor },
      headers: await s.identity.readHeaders(options),
    },
    options,
  );
  const comments = data.comments ?? [];
  return { comments, total: data.total ?? comments.length, hasMore: data.hasMore ?? false, nextCursor: data.nextCursor ?? null };
}

/** `POST /feature-requests/<id>/comments`: a comment, or a reply with `parentId`. */
export async function postComment(s: ClientSession, id: string, draft: CommentDraft, options: UserPostOptions): Promise<Comment> {
  const headers = await s.identity.headers(options);
  const body = compact({
    body: draft.body.trim(),
    parentId: draft.parentId,
    authorName: nonBlank(draft.authorName?.trim()),
    authorEmail: nonBlank(draft.authorEmail?.trim()),
  });
  return s.json<Comment>({ method: "POST", path: `/api/v1/feature-requests/${enc(id)}/comments`, json: body, headers }, options);
}
