import { ChangelogFeedQuerySchema, ChangelogFeedSchema } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import type { AppRow } from "../apps/app-row.js";
import { PUBLIC_CACHE_SECONDS, requirePublicApp } from "../apps/public-app.js";
import { appTag, type Context } from "../context.js";
import { prepareBody, sendCached, type PreparedBody } from "../http/caching.js";
import { ApiError } from "../http/errors.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { identifyReader } from "../users/identity.js";
import { decodeFeedCursor, encodeFeedCursor } from "./cursor.js";
import { linkedRequests, toPublicEntry } from "./entry-shapes.js";
import { errors, Params, tags } from "./public-schemas.js";

/** The reader's identity, when the app's changelog is open to them (anonymous readers only when it allows them). */
export async function requireChangelogAccess(ctx: Context, request: FastifyRequest, appRow: AppRow): Promise<{ token: string | null; identified: boolean }> {
  const identity = await identifyReader(request.headers, appRow, ctx.clock);
  if (appRow.allowAnonymousChangelog !== 1 && !identity.identified) {
    throw new ApiError("authentication_required", { message: "Sign in is required to view this changelog" });
  }
  return identity;
}

/** The published release notes, newest first, cached per page and per whether linked requests show. */
export function feedRoute(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get(
    "/api/v1/public/apps/:appKey/changelog",
    {
      schema: {
        tags,
        summary: "Published release notes, newest first", readsHeaders: [...IDENTITY_HEADERS, "If-None-Match"],
        params: Params,
        querystring: ChangelogFeedQuerySchema,
        response: { 200: ChangelogFeedSchema, ...errors },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "public_read");
      const { app: appRow } = await requirePublicApp(ctx, request.params.appKey);
      const identity = await requireChangelogAccess(ctx, request, appRow);
      const limit = request.query.limit ?? 100;
      const cursor = request.query.cursor === undefined ? undefined : decodeFeedCursor(request.query.cursor);
      // Linked request titles are roadmap content: anonymous callers see them only when the roadmap is open.
      const showLinks = identity.identified || appRow.allowAnonymousRoadmap === 1;
      const cacheKey = `changelog:${appRow.id}:${limit}:${request.query.cursor ?? ""}:${showLinks ? 1 : 0}`;
      let body = await ctx.cache.get<PreparedBody>(cacheKey);
      if (body === undefined) {
        let query = db
          .selectFrom("changelogEntries")
          .selectAll()
          .where("appId", "=", appRow.id)
          .where("status", "=", "published")
          .where("publishedAt", "is not", null);
        if (cursor !== undefined) {
          query = query.where((eb) =>
            eb.or([eb("publishedAt", "<", cursor.publishedAt), eb.and([eb("publishedAt", "=", cursor.publishedAt), eb("id", "<", cursor.id)])]),
          );
        }
        const rows = await query.orderBy("publishedAt", "desc").orderBy("id", "desc").limit(limit + 1).execute();
        const page = rows.slice(0, limit);
        const links = showLinks ? await linkedRequests(db, page.map((r) => r.id), true) : new Map<string, { id: string; title: string }[]>();
        const last = page.at(-1);
        body = prepareBody({
          entries: page.map((r) => toPublicEntry(r, links.get(r.id) ?? [])),
          hasMore: rows.length > limit,
          nextCursor: rows.length > limit && last !== undefined ? encodeFeedCursor(last.publishedAt!, last.id) : null,
        });
        await ctx.cache.set(cacheKey, body, { ttlMs: PUBLIC_CACHE_SECONDS * 1000, tags: [appTag(appRow.id)] });
      }
      const shared = appRow.allowAnonymousChangelog === 1 && identity.token === null;
      return sendCached(request, reply, body, { shared, maxAgeSeconds: PUBLIC_CACHE_SECONDS, vary: "X-User-Token, X-User-Hash, X-SSO-Token" });
    },
  );
}
