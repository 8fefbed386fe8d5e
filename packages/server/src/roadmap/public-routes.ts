import { ColumnsResponseSchema, ErrorBodySchema, VersionsResponseSchema } from "@tidings/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import Type from "typebox";
import { requirePublicApp, PUBLIC_CACHE_SECONDS } from "../apps/public-app.js";
import { contentTags, type Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { prepareBody, sendCached, type PreparedBody } from "../http/caching.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { identifyReader } from "../users/identity.js";
import { listColumns, toColumn } from "./columns.js";
import { listVersions, toVersion } from "./versions.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";

const Params = Type.Object({ appKey: Type.String() });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema };

/** Public roadmap reads: columns (hidden ones flagged) and released versions. */
export function roadmapPublicRoutes(app: App, ctx: Context): void {
  /** Rate-limit, gate, then serve the body for this app from the shared cache. */
  const serve = async (
    request: FastifyRequest,
    reply: FastifyReply,
    appKey: string,
    name: string,
    load: (appId: string) => Promise<unknown>,
  ) => {
    await enforceRateLimit(ctx, request, "public_read");
    const { app: appRow } = await requirePublicApp(ctx, appKey);
    const identity = await identifyReader(request.headers, appRow, ctx.clock);
    if (appRow.allowAnonymousRoadmap !== 1 && !identity.identified) {
      throw new ApiError("authentication_required", { message: "Sign in is required to view this roadmap" });
    }
    const cacheKey = `${name}:${appRow.id}`;
    let body = await ctx.cache.get<PreparedBody>(cacheKey);
    if (body === undefined) {
      body = prepareBody(await load(appRow.id));
      await ctx.cache.set(cacheKey, body, { ttlMs: PUBLIC_CACHE_SECONDS * 1000, tags: contentTags(appRow.id) });
    }
    // Only anonymous answers of an openly readable roadmap may sit in shared caches.
    const shared = appRow.allowAnonymousRoadmap === 1 && identity.token === null;
    return sendCached(request, reply, body, { shared, maxAgeSeconds: PUBLIC_CACHE_SECONDS, vary: "X-User-Token, X-User-Hash, X-SSO-Token" });
  };

  app.get(
    "/api/v1/public/columns/:appKey",
    {
      schema: {
        tags: ["public"],
        summary: "Roadmap columns of an app, by position (hidden ones with isVisible false)", readsHeaders: [...IDENTITY_HEADERS, "If-None-Match"],
        params: Params,
        response: { 200: ColumnsResponseSchema, ...errors },
      },
    },
    (request, reply) =>
      serve(request, reply, request.params.appKey, "columns", async (appId) => ({ columns: (await listColumns(ctx.db.kysely, appId)).map(toColumn) })),
  );

  app.get(
    "/api/v1/public/versions/:appKey",
    {
      schema: {
        tags: ["public"],
        summary: "Released versions of an app, by position", readsHeaders: [...IDENTITY_HEADERS, "If-None-Match"],
        params: Params,
        response: { 200: VersionsResponseSchema, ...errors },
      },
    },
    (request, reply) =>
      serve(request, reply, request.params.appKey, "versions", async (appId) => ({ versions: (await listVersions(ctx.db.kysely, appId, true)).map(toVersion) })),
  );
}
