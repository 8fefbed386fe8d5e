import { ConfirmResultSchema } from "@tidings/protocol";
import { requirePublicApp } from "../apps/public-app.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { recordIdempotentWrite } from "../http/idempotency.js";
import { html, wantsHtml } from "../http/pages.js";
import type { App } from "../http/types.js";
import { page } from "../mail/html.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { interstitialRoute, tokenOf } from "./link-interstitial.js";
import { errors, Params, tags, TokenQuery } from "./public-schemas.js";
import { confirmSubscription } from "./subscriptions.js";

/** The mailed confirmation links of changelog subscriptions, ship notifications and request updates. */
export function confirmRoutes(app: App, ctx: Context): void {
  const confirmRoute = (path: string, kind: "changelog" | "ship" | "request") => {
    interstitialRoute(
      app,
      ctx,
      path,
      { changelog: "Confirm your subscription", ship: "Confirm ship notifications", request: "Confirm request updates" }[kind],
      "Press the button to confirm. Until you do, nothing is sent to you.",
      "Confirm",
      { message: "Missing confirmation token", code: "invalid_confirmation_token" },
    );
    app.post(
      path,
      {
        schema: { tags, summary: "Confirm a subscription with the mailed single-use token", params: Params, querystring: TokenQuery, response: { 200: ConfirmResultSchema, ...errors } },
        preValidation: async (request) => {
          request.body ??= {};
          await enforceRateLimit(ctx, request, "public_write");
        },
      },
      async (request, reply) => {
        const { app: appRow } = await requirePublicApp(ctx, request.params.appKey);
        const token = tokenOf(request);
        if (token === undefined) throw new ApiError("invalid_confirmation_token", { message: "Missing confirmation token" });
        if (!(await confirmSubscription(ctx, appRow.id, kind, token, (trx) => recordIdempotentWrite(trx, request)))) throw new ApiError("invalid_confirmation_token");
        if (wantsHtml(request)) return html(reply, 200, page("Confirmed", "<h1>Thanks, you are subscribed.</h1>"));
        return { confirmed: true };
      },
    );
  };
  confirmRoute("/api/v1/public/apps/:appKey/changelog/confirm", "changelog");
  confirmRoute("/api/v1/public/apps/:appKey/ship-notifications/confirm", "ship");
  confirmRoute("/api/v1/public/apps/:appKey/request-updates/confirm", "request");
}
