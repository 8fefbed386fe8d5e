import { TokenBodySchema, UnsubscribeResultSchema } from "@tidings/protocol";
import { lookupPublicApp } from "../apps/public-app.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { recordIdempotentWrite } from "../http/idempotency.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import { html, wantsHtml } from "../http/pages.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { normaliseEmail } from "../mail/email-address.js";
import { page } from "../mail/html.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { hashUserToken } from "../users/attributes.js";
import { identifyCaller } from "../users/identity.js";
import { interstitialRoute, tokenOf } from "./link-interstitial.js";
import { errors, Params, tags, TokenQuery } from "./public-schemas.js";
import { isUnsubscribeToken, unsubscribeByEmail, unsubscribeWithToken } from "./unsubscribing.js";

/** Leaving: the mailed unsubscribe link (its page and RFC 8058 one-click POST) and the legacy address form. */
export function unsubscribeRoutes(app: App, ctx: Context, runner: JobRunner): void {
  const unsubscribePath = "/api/v1/public/apps/:appKey/changelog/unsubscribe";
  interstitialRoute(app, ctx, unsubscribePath, "Unsubscribe", "Press the button to stop these mails.", "Unsubscribe", { message: "Missing unsubscribe token", code: "invalid_unsubscribe_token" }, (appId, token) =>
    isUnsubscribeToken(ctx, appId, token),
  );
  app.post(
    unsubscribePath,
    {
      schema: {
        tags,
        summary: "Unsubscribe with a signed token (query, JSON or form; RFC 8058 one-click), or the legacy {email} form", readsHeaders: IDENTITY_HEADERS,
        params: Params,
        querystring: TokenQuery,
        body: TokenBodySchema,
        response: { 200: UnsubscribeResultSchema, ...errors },
      },
      preValidation: async (request) => {
        request.body ??= {};
        // One-click links come from mail clients in bulk; the address form is a public write.
        const viaToken = typeof (request.query as { token?: unknown }).token === "string";
        await enforceRateLimit(ctx, request, viaToken ? "public_read" : "public_write");
      },
    },
    async (request, reply) => {
      const found = await lookupPublicApp(ctx, request.params.appKey);
      if (found === undefined) throw new ApiError("app_not_found");
      const appRow = found.app;
      const token = tokenOf(request);
      if (token !== undefined) {
        // An authentic token works even on a private app: leaving must always be possible.
        if (await unsubscribeWithToken(ctx, appRow.id, token, (trx) => recordIdempotentWrite(trx, request))) {
          return wantsHtml(request) ? html(reply, 200, page("Unsubscribed", "<h1>You are unsubscribed.</h1>")) : { unsubscribed: true };
        }
        // Without an authentic token a private app answers as an unknown one.
        if (appRow.allowPublic !== 1) throw new ApiError("app_not_found");
        throw new ApiError("invalid_unsubscribe_token");
      }
      if (appRow.allowPublic !== 1) throw new ApiError("app_not_found");
      const rawEmail = request.body.email;
      if (rawEmail === undefined) throw new ApiError("invalid_unsubscribe_token", { message: "An unsubscribe token is required" });
      const email = normaliseEmail(rawEmail);
      if (email === undefined) {
        throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { email: ["Must be a valid email address"] } } });
      }
      const identity = await identifyCaller(request.headers, appRow, ctx.clock);
      const tokenHash = identity.token === null ? null : hashUserToken(identity.token);
      await unsubscribeByEmail(ctx, appRow, email, tokenHash, (trx) => recordIdempotentWrite(trx, request));
      runner.kick();
      // The same answer whether the address was unsubscribed, mailed a link, or never known.
      return { unsubscribed: true };
    },
  );
}
