import { SubscribeBodySchema, SubscribeResultSchema } from "@tidings/protocol";
import { requirePublicApp } from "../apps/public-app.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { recordIdempotentWrite } from "../http/idempotency.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { normaliseEmail } from "../mail/email-address.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { hashUserToken } from "../users/attributes.js";
import { requireChangelogAccess } from "./feed-route.js";
import { errors, Params, tags } from "./public-schemas.js";
import { requestSubscription } from "./subscriptions.js";

/** Subscribing an address to the release notes (double opt-in: the mail asks to confirm). */
export function subscribeRoute(app: App, ctx: Context, runner: JobRunner): void {
  const db = ctx.db.kysely;

  app.post(
    "/api/v1/public/apps/:appKey/changelog/subscribe",
    {
      schema: {
        tags,
        summary: "Subscribe an address (double opt-in); always 201, whatever the address's state", readsHeaders: IDENTITY_HEADERS,
        params: Params,
        body: SubscribeBodySchema,
        response: { 201: SubscribeResultSchema, ...errors },
      },
      preValidation: (request) => enforceRateLimit(ctx, request, "public_write", "Too many submissions. Please try again shortly."),
    },
    async (request, reply) => {
      const { app: appRow } = await requirePublicApp(ctx, request.params.appKey);
      const identity = await requireChangelogAccess(ctx, request, appRow);
      const email = normaliseEmail(request.body.email);
      if (email === undefined) {
        throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { email: ["Must be a valid email address"] } } });
      }
      const queued = await db.transaction().execute(async (trx) => {
        const mailed = await requestSubscription(trx, ctx, appRow, {
          kind: "changelog",
          featureRequestId: "",
          email,
          tokenHash: identity.token === null ? null : hashUserToken(identity.token),
          requestTitle: null,
        });
        await recordIdempotentWrite(trx, request);
        return mailed;
      });
      if (queued) runner.kick();
      return reply.code(201).send({ subscribed: true, success: true, alreadySubscribed: false });
    },
  );
}
