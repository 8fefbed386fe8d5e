import {
  CommentListQuerySchema,
  CommentListSchema,
  CommentSchema,
  ErrorBodySchema,
  FeatureRequestItemQuerySchema,
  FeatureRequestItemSchema,
  FeatureRequestListQuerySchema,
  FeatureRequestListSchema,
  PostCommentBodySchema,
  ProposeFeatureRequestBodySchema,
  ProposeFeatureRequestResultSchema,
  SimilarFeatureRequestsQuerySchema,
  SimilarFeatureRequestsSchema,
  textLength,
  VoteBodySchema,
  VoteResultSchema,
} from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type, { type Static } from "typebox";
import type { AppRow } from "../apps/apps.js";
import { lookupAppById, PUBLIC_CACHE_SECONDS, requirePublicApp } from "../apps/public-app.js";
import { appContentTag, appRequestSetTag, appTag, contentTags, type Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { hasIdempotencyKey, recordIdempotentWrite } from "../http/idempotency.js";
import { prepareBody, sendCached, type PreparedBody } from "../http/caching.js";
import type { App } from "../http/types.js";
import { checkIntake } from "../intake/intake.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { ensureEndUser, findEndUser, identifyCaller, identifyReader, requireIdentifiedWrite, type EndUserIdentity } from "../users/identity.js";
import { addComment, firstPublicComments, listComments } from "./comments.js";
import { createFeatureRequest, findPublicRequest, lockRequests } from "./feature-requests.js";
import { findListedItem } from "./item.js";
import { listFeatureRequests, type ListPage } from "./listing.js";
import { pageViewer, personalisePage } from "./page-viewer.js";
import { similarRequests } from "./similar.js";
import { applyVote, type VoteMode } from "./votes.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";

/** Anonymous listings may be this stale in the shared cache (writes to the app drop them sooner). */
export const LIST_CACHE_SECONDS = 10;

const tags = ["public: feature requests"];
const IdParams = Type.Object({ id: Type.String({ pattern: "^fr_[0-9a-z]{26}$" }) });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema };

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** Refuses a caller who is not identified when the app's `flag` says anonymous use is off. */
function requireFlag(app: AppRow, flag: 0 | 1, identity: EndUserIdentity, message: string): void {
  if (flag !== 1 && !identity.identified) throw new ApiError("authentication_required", { message });
}

/** The app of a request found by id; a private app's request is not found, like an unknown one. */
async function appOfRequest(ctx: Context, appId: string): Promise<AppRow> {
  const app = await lookupAppById(ctx, appId);
  if (app === undefined || app.allowPublic !== 1) throw new ApiError("feature_request_not_found");
  return app;
}

/**
 * A public request's id and app for a vote, through the shared cache (console writes to the app,
 * the only writes that hide a request, drop it). A stale entry costs nothing: the vote re-checks
 * the request inside its transaction (see `applyVote`). Unknown ids are not cached.
 */
async function votableRequest(ctx: Context, id: string): Promise<{ id: string; appId: string }> {
  const key = `fr-public:${id}`;
  const cached = await ctx.cache.get<{ id: string; appId: string }>(key);
  if (cached !== undefined) return cached;
  const found = await findPublicRequest(ctx.db.kysely, id);
  await ctx.cache.set(key, found, { ttlMs: PUBLIC_CACHE_SECONDS * 1000, tags: [appTag(found.appId)] });
  return found;
}

/** Listing, search, proposals, votes and comments. */
export function featureRequestPublicRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get(
    "/api/v1/feature-requests",
    {
      schema: {
        tags,
        summary: "List or search an app's feature requests", readsHeaders: ["X-App-Key", ...IDENTITY_HEADERS, "If-None-Match"],
        description:
          "App key from `appKey` or `X-App-Key`; user token from `X-User-Token` (the `userToken` query parameter is deprecated). Searches (`q`) rank by relevance.",
        querystring: FeatureRequestListQuerySchema,
        response: { 200: FeatureRequestListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const query = request.query;
      // Spent before any lookup; searches have their own, tighter budget (interface spec, Limits).
      if (query.q !== undefined && query.q.trim() !== "") {
        await enforceRateLimit(ctx, request, "search", "Too many searches. Please try again shortly.");
      } else {
        await enforceRateLimit(ctx, request, "list");
      }
      const appKey = query.appKey ?? header(request, "x-app-key");
      if (appKey === undefined) {
        throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { appKey: ["Required"] } } });
      }
      const { app: appRow } = await requirePublicApp(ctx, appKey);
      const headerToken = header(request, "x-user-token");
      if (headerToken === undefined && query.userToken !== undefined) {
        void reply.header("Warning", '299 - "userToken query parameter is deprecated; send X-User-Token header instead"');
        void reply.header("X-Deprecated-Query-Token", "deprecated");
      }
      const identity = await identifyReader(request.headers, appRow, ctx.clock, query.userToken);
      requireFlag(appRow, appRow.allowAnonymousRoadmap, identity, "Sign in is required to view this roadmap");

      const listQuery = {
        appId: appRow.id,
        limit: query.limit ?? 50,
        offset: query.offset ?? 0,
        cursor: query.cursor,
        versionId: query.versionId,
        q: query.q,
        sort: query.sort ?? "newest",
      } as const;
      // Counting an app's listed requests reads an index entry per request (about 10 ms on 100k):
      // kept until console writes or a proposal change which requests are listed.
      const countCache = { shared: ctx.cache, tags: [appTag(appRow.id), appRequestSetTag(appRow.id)] };
      // Every caller starts from the anonymous page, computed once per query and shared.
      const key = `fr-list:${appRow.id}:${JSON.stringify(listQuery)}`;
      let cached = await ctx.cache.get<{ page: ListPage; body: PreparedBody }>(key);
      if (cached === undefined) {
        const page = await listFeatureRequests(db, ctx.db.dialect, ctx.clock, { ...listQuery, viewerEndUserId: null }, countCache);
        cached = { page, body: prepareBody(page) };
        await ctx.cache.set(key, cached, { ttlMs: LIST_CACHE_SECONDS * 1000, tags: contentTags(appRow.id) });
      }
      if (identity.token === null) {
        return sendCached(request, reply, cached.body, { shared: appRow.allowAnonymousRoadmap === 1, maxAgeSeconds: LIST_CACHE_SECONDS, vary: "X-User-Token, X-SSO-Token" });
      }
      void reply.header("Vary", "X-User-Token, X-SSO-Token").header("Cache-Control", "private, no-store");
      const viewer = await pageViewer(db, ctx.db.dialect, appRow.id, identity.token, cached.page);
      if (viewer === undefined) return reply.type("application/json; charset=utf-8").send(cached.body.json as never);
      // A viewer with pending requests of their own sees them too: that page is not shared.
      if (viewer.ownPending) {
        return listFeatureRequests(db, ctx.db.dialect, ctx.clock, { ...listQuery, viewerEndUserId: viewer.id }, countCache);
      }
      // Built from the shared page's items, which already have the schema's shape: serialised
      // like the shared page (JSON.stringify), measured cheaper here than the schema serialiser.
      return reply.type("application/json; charset=utf-8").send(JSON.stringify(personalisePage(cached.page, viewer)) as never);
    },
  );

  app.get(
    "/api/v1/feature-requests/similar",
    {
      schema: {
        tags,
        summary: "Public requests similar to a title being typed", readsHeaders: ["X-App-Key", ...IDENTITY_HEADERS],
        description:
          "For a compose sheet: requests holding every word of `title` (the last one as a prefix), or, when none does, those holding most of its longest words. Spends the `search` rate limit; pace calls while the user types.",
        querystring: SimilarFeatureRequestsQuerySchema,
        response: { 200: SimilarFeatureRequestsSchema, ...errors },
      },
    },
    async (request) => {
      await enforceRateLimit(ctx, request, "search", "Too many searches. Please try again shortly.");
      const appKey = request.query.appKey ?? header(request, "x-app-key");
      if (appKey === undefined) {
        throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { appKey: ["Required"] } } });
      }
      const { app: appRow } = await requirePublicApp(ctx, appKey);
      const identity = await identifyReader(request.headers, appRow, ctx.clock);
      requireFlag(appRow, appRow.allowAnonymousRoadmap, identity, "Sign in is required to view this roadmap");
      const countCache = { shared: ctx.cache, tags: [appTag(appRow.id), appRequestSetTag(appRow.id)] };
      const requests = await similarRequests(db, ctx.db.dialect, ctx.clock, { appId: appRow.id, title: request.query.title, limit: request.query.limit ?? 5 }, countCache);
      const page: ListPage = { requests, total: requests.length, hasMore: false, nextCursor: null };
      const viewer = identity.token === null ? undefined : await pageViewer(db, ctx.db.dialect, appRow.id, identity.token, page);
      if (viewer === undefined) return { requests };
      if (!viewer.ownPending || requests.length === 0) return { requests: personalisePage(page, viewer).requests };
      // A viewer with pending requests gets no votes from pageViewer (their listing is built anew): read them here.
      const votes = await db
        .selectFrom("featureRequestVotes")
        .select("featureRequestId")
        .where("endUserId", "=", viewer.id)
        .where("featureRequestId", "in", requests.map((r) => r.id))
        .execute();
      return { requests: personalisePage(page, { ...viewer, voted: new Set(votes.map((v) => v.featureRequestId)) }).requests };
    },
  );

  app.get(
    "/api/v1/feature-requests/:id",
    {
      schema: {
        tags,
        summary: "One feature request, in the listing's item shape", readsHeaders: ["X-App-Key", ...IDENTITY_HEADERS],
        description:
          "Visible when the listing would show it: approved and not merged, or the caller's own request waiting for review. `hasVoted` is the caller's (`X-User-Token`); private apps and anonymous callers of apps without `allowAnonymousRoadmap` are refused as by the listing.",
        params: IdParams,
        querystring: FeatureRequestItemQuerySchema,
        response: { 200: FeatureRequestItemSchema, ...errors },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "public_read");
      const row = await db.selectFrom("featureRequests").select(["id", "appId"]).where("id", "=", request.params.id).executeTakeFirst();
      if (row === undefined) throw new ApiError("feature_request_not_found");
      const appRow = await appOfRequest(ctx, row.appId);
      const appKey = request.query.appKey ?? header(request, "x-app-key");
      if (appKey !== undefined && appKey !== appRow.appKey) throw new ApiError("feature_request_not_found");
      const identity = await identifyReader(request.headers, appRow, ctx.clock);
      requireFlag(appRow, appRow.allowAnonymousRoadmap, identity, "Sign in is required to view this roadmap");
      const viewer = identity.token === null ? undefined : await findEndUser(db, appRow.id, identity.token);
      const item = await findListedItem(db, row.id, viewer?.id ?? null);
      if (item === undefined) throw new ApiError("feature_request_not_found");
      void reply.header("Vary", "X-User-Token").header("Cache-Control", "private, no-store");
      return item;
    },
  );

  app.post(
    "/api/v1/feature-requests",
    {
      schema: {
        tags,
        summary: "Propose a feature request", readsHeaders: IDENTITY_HEADERS,
        description: "Needs `allowAnonymousFeedback` or an identified caller. Unidentified proposals wait for approval under the `anonymous` moderation policy.",
        body: ProposeFeatureRequestBodySchema,
        response: { 201: ProposeFeatureRequestResultSchema, ...errors },
      },
      // The intake order: rate limit, app known and public, anonymous flag, and only then the
      // body's validation (so an unknown app is a 404 whatever the body holds).
      preValidation: async (request) => {
        await enforceRateLimit(ctx, request, "public_write", "Too many submissions. Please try again shortly.");
        const raw = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<string, unknown>;
        const appKey = typeof raw.appKey === "string" ? raw.appKey : undefined;
        if (appKey === undefined) return;
        const { app: appRow } = await requirePublicApp(ctx, appKey);
        const token = typeof raw.requesterToken === "string" ? raw.requesterToken : undefined;
        const identity = await identifyCaller(request.headers, appRow, ctx.clock, token);
        requireFlag(appRow, appRow.allowAnonymousFeedback, identity, "Sign in is required to propose a feature request");
        requireIdentifiedWrite(appRow, identity);
      },
    },
    async (request, reply) => {
      const body = request.body;
      const appKey = body.appKey;
      const { app: appRow } = await requirePublicApp(ctx, appKey);
      const identity = await identifyCaller(request.headers, appRow, ctx.clock, body.requesterToken);
      requireFlag(appRow, appRow.allowAnonymousFeedback, identity, "Sign in is required to propose a feature request");
      requireIdentifiedWrite(appRow, identity);
      const title = body.title.trim();
      const description = (body.description ?? body.details ?? "").trim();
      // Counted as the schema's limits are: an emoji is one character, not two.
      const titleLength = textLength(title);
      if (titleLength < 3 || titleLength > 200) {
        throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { title: ["Title must be 3 to 200 characters"] } } });
      }
      const approved =
        appRow.moderationPolicy === "none" || (appRow.moderationPolicy === "anonymous" && identity.identified);
      const pass = await checkIntake(ctx, appRow, {
        verificationToken: body.verificationToken ?? body.turnstileToken,
        identified: identity.identified,
        action: "feature-request",
        remoteIp: request.ip,
      });
      const row = await db.transaction().execute(async (trx) => {
        // The end user before the quota row, in the order feedback takes them, so a new user
        // proposing and sending feedback at once cannot deadlock.
        const endUser = identity.token === null ? null : await ensureEndUser(trx, ctx.clock, appRow.id, identity.token, identity.profile);
        await pass.commit(trx);
        await recordIdempotentWrite(trx, request);
        return createFeatureRequest(trx, ctx.clock, ctx.db.dialect, {
          appId: appRow.id,
          title,
          description,
          approved,
          requesterEndUserId: endUser?.id ?? null,
          requesterName: identity.profile?.name ?? (body.requesterName?.trim() || null),
          requesterEmail: identity.profile?.email ?? (body.requesterEmail?.trim() || null),
          createdByAdmin: false,
          actor: endUser === null ? null : `end_user:${endUser.publicId}`,
        });
      });
      await ctx.cache.invalidateTag(appContentTag(appRow.id));
      // A proposal waiting for review lists nothing new (the count of listed requests and the
      // `trending` ranking hold public requests only; the caller's own are read fresh).
      if (approved) await ctx.cache.invalidateTag(appRequestSetTag(appRow.id));
      return reply.code(201).send({ featureRequestId: row.id, pending: !approved });
    },
  );

  const vote = async (mode: VoteMode, request: FastifyRequest, id: string, body: Static<typeof VoteBodySchema>) => {
    await enforceRateLimit(ctx, request, "vote", "Too many votes. Please try again shortly.");
    const fr = await votableRequest(ctx, id);
    const appRow = await appOfRequest(ctx, fr.appId);
    if (body.appKey !== undefined && body.appKey !== appRow.appKey) throw new ApiError("feature_request_not_found");
    const identity = await identifyCaller(request.headers, appRow, ctx.clock, body.userToken);
    requireFlag(appRow, appRow.allowAnonymousVote, identity, "Sign in is required to vote");
    requireIdentifiedWrite(appRow, identity);
    if (identity.token === null) throw new ApiError("user_token_required");
    const result = await applyVote(
      ctx.db,
      ctx.clock,
      {
        featureRequestId: fr.id,
        appId: appRow.id,
        token: identity.token,
        mode,
        ...(identity.profile === undefined ? {} : { profile: identity.profile }),
        ...(body.shipNotifyEmail === undefined ? {} : { shipNotifyEmail: body.shipNotifyEmail }),
      },
      // Only a keyed request has a write to record; the others are applied in batches.
      hasIdempotencyKey(request) ? (trx) => recordIdempotentWrite(trx, request) : undefined,
    );
    await ctx.cache.invalidateTag(appContentTag(appRow.id));
    return result;
  };
  // Legacy clients POST `{appKey, userToken}`; DELETE may come with or without a body.
  const emptyBodyIsObject = async (request: FastifyRequest) => {
    request.body ??= {};
  };
  const voteSchema = { tags, readsHeaders: IDENTITY_HEADERS, params: IdParams, body: VoteBodySchema, response: { 200: VoteResultSchema, ...errors } };
  app.post(
    "/api/v1/feature-requests/:id/vote",
    { schema: { ...voteSchema, summary: "Toggle the caller's vote" }, preValidation: emptyBodyIsObject },
    (request) => vote("toggle", request, request.params.id, request.body),
  );
  app.delete(
    "/api/v1/feature-requests/:id/vote",
    { schema: { ...voteSchema, summary: "Remove the caller's vote (idempotent)" }, preValidation: emptyBodyIsObject },
    (request) => vote("remove", request, request.params.id, request.body),
  );

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
      const first = request.query.cursor === undefined ? await firstPublicComments(db, request.params.id, limit) : undefined;
      const fr = first === undefined ? await findPublicRequest(db, request.params.id) : { id: request.params.id, appId: first.appId };
      const appRow = await appOfRequest(ctx, fr.appId);
      const identity = await identifyReader(request.headers, appRow, ctx.clock);
      requireFlag(appRow, appRow.allowAnonymousRoadmap, identity, "Sign in is required to view this roadmap");
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
      const fr = await findPublicRequest(db, request.params.id);
      const appRow = await appOfRequest(ctx, fr.appId);
      const identity = await identifyCaller(request.headers, appRow, ctx.clock);
      requireFlag(appRow, appRow.allowAnonymousVote, identity, "Sign in is required to comment");
      requireIdentifiedWrite(appRow, identity);
      if (identity.token === null) throw new ApiError("user_token_required");
      const text = request.body.body.trim();
      if (text === "") {
        throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { body: ["Required"] } } });
      }
      const comment = await db.transaction().execute(async (trx) => {
        // The request before the end user, in the order votes take them, so a new user voting
        // and commenting at once cannot deadlock.
        await lockRequests(trx, ctx.db.dialect, [fr.id]);
        const endUser = await ensureEndUser(trx, ctx.clock, appRow.id, identity.token!, identity.profile);
        await recordIdempotentWrite(trx, request);
        return addComment(trx, ctx.clock, {
          publicOnly: true,
          featureRequestId: fr.id,
          body: text,
          // A signed-in user is who the host says, whatever name the form carried.
          authorName: identity.profile?.name ?? (request.body.authorName?.trim() || null),
          authorEmail: identity.profile?.email ?? (request.body.authorEmail?.trim() || null),
          endUserId: endUser.id,
          teamUserId: null,
          isTeam: false,
          parentId: request.body.parentId ?? null,
        });
      });
      await ctx.cache.invalidateTag(appContentTag(appRow.id));
      return reply.code(201).send(comment);
    },
  );
}
