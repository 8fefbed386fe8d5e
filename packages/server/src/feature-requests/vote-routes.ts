import { VoteBodySchema, VoteResultSchema } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import type { Static } from "typebox";
import { appContentTag, type Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { hasIdempotencyKey, recordIdempotentWrite } from "../http/idempotency.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { identifyCaller, requireIdentifiedWrite } from "../users/identity.js";
import { appOfRequest, errors, IdParams, requireFlag, requireVisibleBoard, tags, writablePublicRequest } from "./public-access.js";
import { applyVote, type VoteMode } from "./votes.js";

/** Voting: `POST` toggles the caller's vote, `DELETE` removes it. */
export function voteRoutes(app: App, ctx: Context): void {
  const vote = async (mode: VoteMode, request: FastifyRequest, id: string, body: Static<typeof VoteBodySchema>) => {
    await enforceRateLimit(ctx, request, "vote", "Too many votes. Please try again shortly.");
    const fr = await writablePublicRequest(ctx, id);
    const appRow = await appOfRequest(ctx, fr.appId);
    if (body.appKey !== undefined && body.appKey !== appRow.appKey) throw new ApiError("feature_request_not_found");
    const identity = await identifyCaller(request.headers, appRow, ctx.clock, body.userToken);
    requireFlag(appRow, appRow.allowAnonymousVote, identity, "Sign in is required to vote");
    await requireVisibleBoard(ctx, appRow, identity, fr.boardId);
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
}
