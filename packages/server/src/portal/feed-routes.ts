import type { FastifyReply, FastifyRequest } from "fastify";
import Type from "typebox";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { BOARD_FEEDS, buildFeed, FEEDS, type FeedName } from "./feeds.js";
import { loadOrganisation } from "./organisation.js";
import { portalOrigin, publicPortalApp } from "./portal-request.js";
import { buildSitemap } from "./sitemap.js";

/** How long feed readers and caches may keep a feed or sitemap. */
const FEED_CACHE_SECONDS = 300;

/** The portal's RSS and Atom feeds (the app's and each public board's) and its sitemap. */
export function feedRoutes(app: App, ctx: Context): void {
  const originOf = (request: FastifyRequest) => portalOrigin(ctx, request);
  const portalApp = (appKey: string) => publicPortalApp(ctx, appKey);

  const feed = async (request: FastifyRequest, reply: FastifyReply, appKey: string, name: FeedName, boardSlug?: string) => {
    await enforceRateLimit(ctx, request, "list");
    const appRow = await portalApp(appKey);
    if (appRow === undefined) throw new ApiError("app_not_found");
    const open = FEEDS[name].of === "changelog" ? appRow.allowAnonymousChangelog === 1 : appRow.allowAnonymousRoadmap === 1;
    if (!open) throw new ApiError("authentication_required", { message: "This feed is not public" });
    // A board's feed: public boards only; an unknown and a private one are the same 404.
    const board = boardSlug === undefined ? undefined : (await loadOrganisation(ctx, appRow.id)).boards.find((b) => b.slug === boardSlug);
    if (boardSlug !== undefined && board === undefined) throw new ApiError("not_found");
    const xml = await buildFeed(ctx, appRow, name, originOf(request), board);
    return reply
      .header("Cache-Control", `public, max-age=${FEED_CACHE_SECONDS}`)
      .header("X-Robots-Tag", "noindex")
      .type(FEEDS[name].format === "rss" ? "application/rss+xml; charset=utf-8" : "application/atom+xml; charset=utf-8")
      .send(xml);
  };
  for (const name of Object.keys(FEEDS) as FeedName[]) {
    app.get(`/p/:appKey/${name}`, { schema: { hide: true, params: Type.Object({ appKey: Type.String({ maxLength: 200 }) }) } }, (request, reply) =>
      feed(request, reply, request.params.appKey, name),
    );
  }
  for (const name of BOARD_FEEDS) {
    app.get(
      `/p/:appKey/b/:board/${name}`,
      { schema: { hide: true, params: Type.Object({ appKey: Type.String({ maxLength: 200 }), board: Type.String({ maxLength: 64 }) }) } },
      (request, reply) => feed(request, reply, request.params.appKey, name, request.params.board),
    );
  }

  app.get("/p/:appKey/sitemap.xml", { schema: { hide: true, params: Type.Object({ appKey: Type.String({ maxLength: 200 }) }) } }, async (request, reply) => {
    await enforceRateLimit(ctx, request, "list");
    const appRow = await portalApp(request.params.appKey);
    // Only indexable apps have one: the others ask crawlers not to index them.
    if (appRow === undefined || appRow.portalIndexable !== 1) throw new ApiError("app_not_found");
    return reply
      .header("Cache-Control", `public, max-age=${FEED_CACHE_SECONDS}`)
      .type("application/xml; charset=utf-8")
      .send(await buildSitemap(ctx, appRow, await loadOrganisation(ctx, appRow.id), originOf(request)));
  });
}
