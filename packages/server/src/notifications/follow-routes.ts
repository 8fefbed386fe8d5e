import { ErrorBodySchema, FollowRequestBodySchema, FollowRequestResultSchema } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import { requestSubscription, requestSubscriptionOf } from "../changelog/subscriptions.js";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { recordIdempotentWrite } from "../http/idempotency.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { normaliseEmail } from "../mail/email-address.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { hashUserToken } from "../users/attributes.js";
import { followable, followVouched, invalidEmail, participant } from "./following.js";

const tags = ["public: notifications"];
const IdParams = Type.Object({ id: Type.String({ pattern: "^fr_[0-9a-z]{26}$" }) });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema };

/**
 * Following a request and leaving it (`POST`/`DELETE …/feature-requests/<id>/subscription`).
 * Registered inside the scope that reads form posts.
 */
export function followRoutes(app: App, ctx: Context, runner: JobRunner): void {
  const db = ctx.db.kysely;
  const emptyBodyIsObject = async (request: FastifyRequest) => {
    request.body ??= {};
  };

  app.post(
    "/api/v1/feature-requests/:id/subscription",
    {
      schema: {
        tags,
        summary: "Follow a request: moves, team replies and shipping, mailed at most once an hour", readsHeaders: IDENTITY_HEADERS,
        description:
          "An SSO user with an `email` claim follows at once; any other address gets a confirmation mail first (`pending: true`). Gated like votes (`allowAnonymousVote`, `requireIdentifiedUsers`).",
        params: IdParams,
        body: FollowRequestBodySchema,
        response: { 200: FollowRequestResultSchema, ...errors },
      },
      preValidation: emptyBodyIsObject,
    },
    async (request) => {
      await enforceRateLimit(ctx, request, "public_write", "Too many submissions. Please try again shortly.");
      const fr = await followable(ctx, request, request.params.id);
      const identity = participant(fr.app, fr.identity);
      const given = request.body.email === undefined ? undefined : normaliseEmail(request.body.email);
      if (request.body.email !== undefined && given === undefined) throw invalidEmail();
      const vouched = identity.profile?.email ?? null;
      const email = given ?? vouched;
      if (email === null) throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { email: ["Required"] } } });
      const tokenHash = identity.token === null ? null : hashUserToken(identity.token);
      const pending = await db.transaction().execute(async (trx) => {
        await recordIdempotentWrite(trx, request);
        if (email === vouched && tokenHash !== null) {
          await followVouched(trx, ctx, fr.app, fr.id, email, tokenHash);
          return false;
        }
        await requestSubscription(trx, ctx, fr.app, { kind: "request", featureRequestId: fr.id, email, tokenHash, requestTitle: fr.title });
        const row = await requestSubscriptionOf(trx, { appId: fr.app.id, kind: "request", featureRequestId: fr.id, email });
        return row?.status !== "confirmed";
      });
      if (pending) runner.kick();
      return { following: !pending, pending };
    },
  );

  app.delete(
    "/api/v1/feature-requests/:id/subscription",
    {
      schema: {
        tags,
        summary: "Stop following a request (idempotent)", readsHeaders: IDENTITY_HEADERS,
        description: "Stops the SSO user's address, or the `email` this caller's user token followed with. Answers the same whether anything changed.",
        params: IdParams,
        body: FollowRequestBodySchema,
        response: { 200: FollowRequestResultSchema, ...errors },
      },
      preValidation: emptyBodyIsObject,
    },
    async (request) => {
      await enforceRateLimit(ctx, request, "public_write", "Too many submissions. Please try again shortly.");
      const fr = await followable(ctx, request, request.params.id);
      const identity = fr.identity;
      const given = request.body?.email === undefined ? undefined : normaliseEmail(request.body.email);
      if (request.body?.email !== undefined && given === undefined) throw invalidEmail();
      const email = given ?? identity.profile?.email ?? null;
      if (email !== null && identity.token !== null) {
        const now = isoNow(ctx.clock);
        // Only the SSO user's own address, or an address this caller's token subscribed.
        let update = db
          .updateTable("emailSubscriptions")
          .set({ status: "unsubscribed", confirmNonce: null, unsubscribedAt: now, updatedAt: now })
          .where("appId", "=", fr.app.id)
          .where("kind", "=", "request")
          .where("featureRequestId", "=", fr.id)
          .where("email", "=", email);
        if (email !== identity.profile?.email) update = update.where("subscriberTokenHash", "=", hashUserToken(identity.token));
        await update.execute();
      }
      return { following: false, pending: false };
    },
  );
}
