import { ErrorBodySchema, PublicCustomFieldsQuerySchema, PublicCustomFieldsResponseSchema } from "@tidings/protocol";
import Type from "typebox";
import { requirePublicApp } from "../apps/public-app.js";
import { boardAudience, boardBySlug } from "../boards/access.js";
import { defaultBoard } from "../boards/boards.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { identifyReader } from "../users/identity.js";
import { boardFields } from "./field-reads.js";
import { toPublicCustomField } from "./field-rows.js";

const Params = Type.Object({ appKey: Type.String() });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema };

/** The custom fields a form renders. */
export function customFieldsPublicRoutes(app: App, ctx: Context): void {
  app.get(
    "/api/v1/public/apps/:appKey/fields",
    {
      schema: {
        tags: ["public"],
        summary: "The custom fields the proposal and feedback forms ask for, by position",
        description:
          "The app's active fields for a board's forms: the app-wide ones and the board's own (`board`: a slug the caller may see, else 400 `unknown_board`; default: the board proposals go to). `appliesTo` says which form asks for each.",
        readsHeaders: [...IDENTITY_HEADERS],
        params: Params,
        querystring: PublicCustomFieldsQuerySchema,
        response: { 200: PublicCustomFieldsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "public_read");
      const { app: appRow } = await requirePublicApp(ctx, request.params.appKey);
      const slug = request.query.board;
      let boardId: string;
      if (slug === undefined) {
        boardId = (await defaultBoard(ctx.db.kysely, appRow.id)).id;
      } else {
        // A private board the caller may not see answers like one that does not exist.
        const identity = await identifyReader(request.headers, appRow, ctx.clock);
        const board = boardBySlug(await boardAudience(ctx.db.kysely, appRow.id, identity), slug);
        if (board === undefined) throw new ApiError("unknown_board");
        boardId = board.id;
        reply.header("Vary", "X-User-Token, X-User-Hash, X-SSO-Token");
      }
      // A field made required must be asked at once: no shared cache.
      reply.header("Cache-Control", "private, no-cache");
      return { fields: (await boardFields(ctx.db.kysely, appRow.id, boardId)).map(toPublicCustomField) };
    },
  );
}
