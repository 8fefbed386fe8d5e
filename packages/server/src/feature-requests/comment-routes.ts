import { CommentListQuerySchema, CommentListSchema, CommentSchema, PostCommentBodySchema } from "@tidings/protocol";
import { isoNow } from "../clock.js";
import { appContentTag, requestCommentsTag, type Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { hasIdempotencyKey, recordIdempotentWrite } from "../http/idempotency.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { ensureEndUser, identifyCaller, identifyReader, requireIdentifiedWrite, tokenHash } from "../users/identity.js";
import { cachedFirstComments } from "./comment-page-cache.js";
import { addComment } from "./comments.js";
import { countCommentFindUser } from "./comment-counts.js";
import { listComments } from "./comment-pages.js";
import { quickComment } from "./quick-comment.js";
import { findPublicRequest } from "./public-request.js";
import { appOfRequest, errors, IdParams, requireFlag, requireVisibleBoard, tags, writablePublicRequest } from "./public-access.js";

/** A request's public comments: reading them, and commenting or replying. */
export function commentRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get(
    "/api/v1/feature-requests/:id/comments",
    {
      schema: {
        tags,
        summary: "Comments of a request, oldest first (hidden ones excluded)", readsHeaders: IDENTITY_HEADERS,
        params: IdParams,
        querystring: CommentListQuerySchema,
        response: { 200: CommentListSchema, ...errors },
      },
    },
    async (request) => {
      await enforceRateLimit(ctx, request, "public_read");
      const limit = request.query.limit ?? 200;
      // The first page, what a viewer opening a request reads, comes with the request's check.
      const first = request.query.cursor === undefined ? await cachedFirstComments(ctx.cache, db, request.params.id, limit) : undefined;
      const fr = first === undefined ? await findPublicRequest(db, request.params.id) : { id: request.params.id, appId: first.appId, boardId: first.boardId };
      const appRow = await appOfRequest(ctx, fr.appId);
      const identity = await identifyReader(request.headers, appRow, ctx.clock);
      requireFlag(appRow, appRow.allowAnonymousRoadmap, identity, "Sign in is required to view this roadmap");
      await requireVisibleBoard(ctx, appRow, identity, fr.boardId);
      return first?.page ?? listComments(db, fr.id, { limit, cursor: request.query.cursor });
    },
  );

  app.post(
    "/api/v1/feature-requests/:id/comments",
    {
      schema: {
        tags,
        summary: "Comment on a request, or reply to a comment", readsHeaders: IDENTITY_HEADERS,
        description: "Needs `X-User-Token`; gated by `allowAnonymousVote` (participation) for callers who are not identified.",
        params: IdParams,
        body: PostCommentBodySchema,
        response: { 201: CommentSchema, ...errors },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "public_write", "Too many submissions. Please try again shortly.");
      const fr = await writablePublicRequest(ctx, request.params.id);
      const appRow = await appOfRequest(ctx, fr.appId);
      const identity = await identifyCaller(request.headers, appRow, ctx.clock);
      requireFlag(appRow, appRow.allowAnonymousVote, identity, "Sign in is required to comment");
      await requireVisibleBoard(ctx, appRow, identity, fr.boardId);
      requireIdentifiedWrite(appRow, identity);
      if (identity.token === null) throw new ApiError("user_token_required");
      const text = request.body.body.trim();
      if (text === "") {
        throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { body: ["Required"] } } });
      }
      const authorName = identity.profile?.name ?? (request.body.authorName?.trim() || null);
      const authorEmail = identity.profile?.email ?? (request.body.authorEmail?.trim() || null);
      // PostgreSQL: a returning caller's plain comment (no reply, no key to spend, no profile to
      // record) is one statement when the request is public and no webhook is due; otherwise,
      // having written nothing, the transaction below sorts out why.
      const quick =
        ctx.db.dialect === "postgres" && identity.profile === undefined && (request.body.parentId ?? null) === null && !hasIdempotencyKey(request)
          ? await quickComment(db, ctx.clock, { featureRequestId: fr.id, appId: appRow.id, hash: tokenHash(identity.token), body: text, authorName, authorEmail })
          : undefined;
      const comment = quick ?? await db.transaction().execute(async (trx) => {
        // The request before the end user, in the order votes take them, so a new user voting
        // and commenting at once cannot deadlock. On PostgreSQL the statement that moves the
        // request's count (and so locks it) finds the caller too.
        const first =
          ctx.db.dialect === "postgres"
            ? await countCommentFindUser(trx, { id: fr.id, appId: appRow.id, hash: tokenHash(identity.token!), now: isoNow(ctx.clock) })
            : undefined;
        const endUser = await ensureEndUser(trx, ctx.clock, appRow.id, identity.token!, identity.profile, first?.endUser);
        await recordIdempotentWrite(trx, request);
        return addComment(trx, ctx.clock, {
          publicOnly: true,
          featureRequestId: fr.id,
          body: text,
          // A signed-in user is who the host says, whatever name the form carried.
          authorName,
          authorEmail,
          endUserId: endUser.id,
          teamUserId: null,
          isTeam: false,
          parentId: request.body.parentId ?? null,
          ...(first === undefined ? {} : { counted: first.counted }),
        });
      });
      await ctx.cache.invalidateTag(appContentTag(appRow.id));
      await ctx.cache.invalidateTag(requestCommentsTag(fr.id));
      return reply.code(201).send(comment);
    },
  );
}
