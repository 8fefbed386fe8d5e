import { ErrorBodySchema, PublicAppConfigSchema } from "@tidings/protocol";
import Type from "typebox";
import { appTag, type Context } from "../context.js";
import { prepareBody, sendCached, type PreparedBody } from "../http/caching.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { toPublicConfig } from "./public-config.js";
import { lookupPublicApp, PUBLIC_CACHE_SECONDS } from "./public-app.js";

// Unknown and private apps get these exact bytes (interface spec, Errors 1): no code, no hint.
const APP_NOT_FOUND_BODY = '{"error":"App not found"}';

/** `GET /api/v1/public/config/:appKey`. */
export function publicConfigRoutes(app: App, ctx: Context): void {
  app.get(
    "/api/v1/public/config/:appKey",
    {
      schema: {
        tags: ["public"],
        summary: "Public configuration of an app", readsHeaders: ["If-None-Match"],
        description: "Unknown and private apps both answer 404 with exactly `{\"error\":\"App not found\"}`.",
        params: Type.Object({ appKey: Type.String() }),
        response: { 200: PublicAppConfigSchema, 404: ErrorBodySchema, 429: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      // Spent before any lookup (wire contract §2.1), so probing keys costs the budget too.
      await enforceRateLimit(ctx, request, "config");
      const { appKey } = request.params;
      const cacheKey = `config:${appKey}`;
      let body = await ctx.cache.get<PreparedBody>(cacheKey);
      if (body === undefined) {
        const found = await lookupPublicApp(ctx, appKey);
        if (found === undefined || found.app.allowPublic !== 1) {
          return reply.code(404).type("application/json; charset=utf-8").send(APP_NOT_FOUND_BODY as never);
        }
        body = prepareBody(toPublicConfig(found.app, found.workspaceSlug, ctx.config.production));
        await ctx.cache.set(cacheKey, body, { ttlMs: PUBLIC_CACHE_SECONDS * 1000, tags: [appTag(found.app.id)] });
      }
      return sendCached(request, reply, body, { shared: true, maxAgeSeconds: PUBLIC_CACHE_SECONDS });
    },
  );
}
