import { ErrorBodySchema, PublicBoardsResponseSchema } from "@tidings/protocol";
import Type from "typebox";
import { requirePublicApp } from "../apps/public-app.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { identifyReader } from "../users/identity.js";
import { boardAudience } from "./access.js";
import { toPublicBoard } from "./board-views.js";

const Params = Type.Object({ appKey: Type.String() });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema };

/** The boards a public caller may see. */
export function boardsPublicRoutes(app: App, ctx: Context): void {
  app.get(
    "/api/v1/public/apps/:appKey/boards",
    {
      schema: {
        tags: ["public"],
        summary: "The boards of an app the caller may see, by position",
        description:
          "Every public board, and the private boards whose access rule admits the caller (identified with a user hash or SSO token). A private board the caller may not see is not listed.",
        readsHeaders: [...IDENTITY_HEADERS],
        params: Params,
        response: { 200: PublicBoardsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "public_read");
      const { app: appRow } = await requirePublicApp(ctx, request.params.appKey);
      const identity = await identifyReader(request.headers, appRow, ctx.clock);
      const audience = await boardAudience(ctx.db.kysely, appRow.id, identity);
      // The answer depends on who asks, and a board made private must drop out at once: no shared cache.
      reply.header("Cache-Control", "private, no-cache");
      reply.header("Vary", "X-User-Token, X-User-Hash, X-SSO-Token");
      return { boards: audience.boards.map(toPublicBoard) };
    },
  );
}
