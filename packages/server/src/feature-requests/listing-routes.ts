import type { Static } from "typebox";
import {
  FeatureRequestItemQuerySchema,
  FeatureRequestItemSchema,
  FeatureRequestListQuerySchema,
  FeatureRequestListSchema,
  SimilarFeatureRequestsQuerySchema,
  SimilarFeatureRequestsSchema,
  type FeatureRequestItem,
} from "@tidings/protocol";
import { approximateBytes, approximateBytesOfJson } from "../cache/entry-size.js";
import { requirePublicApp } from "../apps/public-app.js";
import { appRequestSetTag, appTag, contentTags, type Context } from "../context.js";
import { prepareBody, sendCached, type PreparedBody } from "../http/caching.js";
import { ApiError } from "../http/errors.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { identifyReader, tokenHash } from "../users/identity.js";
import { listedItem } from "./item.js";
import { itemFor, readItem, readItemViewer, shareItem } from "./item-cache.js";
import { listFeatureRequests, readKeyedFirstPage, type KeyedFirstPage, type ListPage } from "./listing.js";
import { isFirstPage } from "./first-page.js";
import { ownPage } from "./own-page.js";
import { pageViewer, personalisePage } from "./page-viewer.js";
import { appOfRequest, errors, header, IdParams, requireFlag, tags } from "./public-access.js";
import { similarRequests } from "./similar.js";
import { TRENDING_WINDOW_DAYS, trendingRanking } from "./trending.js";
import { audienceSees, boardAudience, boardsToRead, cacheBoardsByAppKey } from "../boards/access.js";
import { publicTagIds } from "../tags/public-tags.js";

/** Anonymous listings may be this stale in the shared cache (writes to the app drop them sooner). */
export const LIST_CACHE_SECONDS = 10;

/**
 * Whether a listing asks the first page of the whole app that every visitor starts from (see
 * `isFirstPage`), before its app and boards are known: no board named, no tag, search, cursor or
 * version.
 */
function asksWholeFirstPage(query: Static<typeof FeatureRequestListQuerySchema>): boolean {
  return (
    query.board === undefined &&
    query.tag === undefined &&
    isFirstPage({ appId: "", limit: 0, offset: query.offset ?? 0, cursor: query.cursor, versionId: query.versionId, q: query.q, sort: query.sort ?? "newest", viewerEndUserId: null })
  );
}

/** Reading the board: the listing and its search, requests like a title being typed, and one request. */
export function listingRoutes(app: App, ctx: Context): void {
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
      // On PostgreSQL an app not in the cache has its boards read beside it, and the whole app's
      // first page when that is what is asked (see KeyedFirstPage): one round trip, not three.
      const early: { page?: KeyedFirstPage | undefined } = {};
      const beside = async (key: string) => {
        const sort = query.sort ?? "newest";
        const page = sort !== "trending" && asksWholeFirstPage(query) ? readKeyedFirstPage(db, key, sort, query.limit ?? 50) : undefined;
        [, early.page] = await Promise.all([cacheBoardsByAppKey(db, key, ctx.cache), page]);
      };
      const { app: appRow } = await requirePublicApp(ctx, appKey, ctx.db.dialect === "postgres" ? beside : undefined);
      const headerToken = header(request, "x-user-token");
      if (headerToken === undefined && query.userToken !== undefined) {
        void reply.header("Warning", '299 - "userToken query parameter is deprecated; send X-User-Token header instead"');
        void reply.header("X-Deprecated-Query-Token", "deprecated");
      }
      const identity = await identifyReader(request.headers, appRow, ctx.clock, query.userToken);
      requireFlag(appRow, appRow.allowAnonymousRoadmap, identity, "Sign in is required to view this roadmap");

      const audience = await boardAudience(db, appRow.id, identity, ctx.cache);
      const listQuery = {
        appId: appRow.id,
        limit: query.limit ?? 50,
        offset: query.offset ?? 0,
        cursor: query.cursor,
        versionId: query.versionId,
        boardIds: boardsToRead(audience, query.board),
        tagIds: await publicTagIds(db, appRow.id, query.tag === undefined ? [] : Array.isArray(query.tag) ? query.tag : [query.tag], ctx.cache),
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
        const page = await listFeatureRequests(db, ctx.db.dialect, ctx.clock, { ...listQuery, viewerEndUserId: null }, countCache, early.page);
        cached = { page, body: prepareBody(page) };
        // Its size told from the JSON: walking the page cost a cold page about as much as serialising it.
        const bytes = approximateBytes(cached.body) + approximateBytesOfJson(cached.body.json);
        await ctx.cache.set(key, cached, { ttlMs: LIST_CACHE_SECONDS * 1000, tags: contentTags(appRow.id), bytes });
      }
      if (identity.token === null) {
        return sendCached(request, reply, cached.body, { shared: appRow.allowAnonymousRoadmap === 1, maxAgeSeconds: LIST_CACHE_SECONDS, vary: "X-User-Token, X-SSO-Token" });
      }
      void reply.header("Vary", "X-User-Token, X-SSO-Token").header("Cache-Control", "private, no-store");
      const viewer = await pageViewer(db, ctx.db.dialect, appRow.id, identity.token, cached.page);
      if (viewer === undefined) return reply.type("application/json; charset=utf-8").send(cached.body.json as never);
      // A viewer with pending requests of their own sees them too: merged into the shared page
      // where it can be (`newest` and `top`), else their page is built in full.
      if (viewer.ownPending) {
        const personal = { ...listQuery, viewerEndUserId: viewer.id };
        const since = new Date(ctx.clock.now().getTime() - TRENDING_WINDOW_DAYS * 86_400_000).toISOString();
        const merged = await ownPage(db, personal, cached.page, viewer, {
          shared: ctx.cache,
          // The ranking the shared page was built from, shared through the cache like it.
          ranking: () => trendingRanking(db, personal, since, countCache),
        });
        if (merged !== undefined) return reply.type("application/json; charset=utf-8").send(JSON.stringify(merged) as never);
        return listFeatureRequests(db, ctx.db.dialect, ctx.clock, personal, countCache);
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
          "For a compose sheet: requests whose title holds the most of the telling words of `title` (the last one as a prefix, as it is being typed), the most alike first, then the most voted. Spends the `search` rate limit; pace calls while the user types.",
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
      const audience = await boardAudience(db, appRow.id, identity, ctx.cache);
      const requests = await similarRequests(
        db,
        ctx.db.dialect,
        { appId: appRow.id, title: request.query.title, limit: request.query.limit ?? 5, boardIds: boardsToRead(audience, undefined) },
        countCache,
      );
      const page: ListPage = { requests, total: requests.length, hasMore: false, nextCursor: null };
      const viewer = identity.token === null ? undefined : await pageViewer(db, ctx.db.dialect, appRow.id, identity.token, page, { own: false });
      if (viewer === undefined) return { requests };
      return { requests: personalisePage(page, viewer).requests };
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
      // What every viewer shares of the request comes from the shared cache, or from one read of
      // its row, which also serves the app lookup and the board check.
      const found = await readItem(ctx, request.params.id);
      if (found === undefined) throw new ApiError("feature_request_not_found");
      const { appId, boardId } = "shared" in found ? found.shared : found.row;
      const appRow = await appOfRequest(ctx, appId);
      const appKey = request.query.appKey ?? header(request, "x-app-key");
      if (appKey !== undefined && appKey !== appRow.appKey) throw new ApiError("feature_request_not_found");
      const identity = await identifyReader(request.headers, appRow, ctx.clock);
      requireFlag(appRow, appRow.allowAnonymousRoadmap, identity, "Sign in is required to view this roadmap");
      // A request on a private board the caller may not see is not found, like an unknown one.
      if (!audienceSees(await boardAudience(db, appRow.id, identity, ctx.cache), boardId)) throw new ApiError("feature_request_not_found");
      const requestId = "shared" in found ? found.shared.item.id : found.row.id;
      const viewer = identity.token === null ? undefined : await readItemViewer(ctx, appRow.id, tokenHash(identity.token), requestId);
      let item: FeatureRequestItem | undefined;
      if ("shared" in found) item = itemFor(found.shared, viewer);
      else {
        const shared = await shareItem(ctx, found.row);
        // Not shared: the viewer's own request waiting for review, or one nobody may read.
        item = shared !== undefined ? itemFor(shared, viewer) : await listedItem(db, found.row, viewer ?? null);
      }
      if (item === undefined) throw new ApiError("feature_request_not_found");
      void reply.header("Vary", "X-User-Token").header("Cache-Control", "private, no-store");
      return item;
    },
  );
}
