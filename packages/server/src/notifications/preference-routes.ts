import { ErrorBodySchema } from "@tidings/protocol";
import Type from "typebox";
import { lookupPublicApp } from "../apps/public-app.js";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { recordIdempotentWrite } from "../http/idempotency.js";
import { HTML_PAGE } from "../http/openapi.js";
import { html, wantsHtml } from "../http/pages.js";
import type { App } from "../http/types.js";
import { page } from "../mail/html.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { activeSubscriptions, preferencePage, tokenOwner } from "./preference-page.js";
import { readPreferences, writePreferences } from "./preferences.js";

const tags = ["public: notifications"];
const AppParams = Type.Object({ appKey: Type.String({ maxLength: 128 }) });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema };

/**
 * The preference page mailed with every digest (`GET`/`POST …/apps/<APP_KEY>/notifications?token=…`).
 * Registered inside the scope that reads form posts.
 */
export function preferenceRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  const PreferencesQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 2000 })) });
  app.get(
    "/api/v1/public/apps/:appKey/notifications",
    {
      schema: {
        tags,
        summary: "The address's preference page (HTML; changes nothing)",
        params: AppParams,
        querystring: PreferencesQuery,
        response: errors,
        documentedAnswers: { 200: { description: "The preference page", content: HTML_PAGE } },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "public_read");
      const found = await lookupPublicApp(ctx, request.params.appKey);
      if (found === undefined) throw new ApiError("app_not_found");
      const token = request.query.token ?? "";
      // Leaving must always be possible, even when the app went private.
      const owner = await tokenOwner(ctx, found.app.id, token);
      // Without an authentic link a private app answers as an unknown one.
      if (owner === undefined && found.app.allowPublic !== 1) throw new ApiError("app_not_found");
      if (owner === undefined) {
        if (!wantsHtml(request)) throw new ApiError("invalid_unsubscribe_token", { message: "Invalid preference link" });
        return html(reply, 400, page("Notifications", "<p>This link is not valid. Use the link of a mail you received.</p>"));
      }
      const [prefs, subs] = await Promise.all([readPreferences(db, found.app.id, owner.email), activeSubscriptions(db, found.app.id, owner.email)]);
      return html(reply, 200, preferencePage(found.app, owner.email, token, prefs, subs, null));
    },
  );

  app.post(
    "/api/v1/public/apps/:appKey/notifications",
    {
      schema: {
        tags,
        summary: "Save the address's preferences (the page's form: token, moves, replies, ships, keep_<subscription>)",
        params: AppParams,
        body: Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 2000 }), { maxProperties: 500 }),
        response: errors,
        documentedAnswers: { 200: { description: "The preference page, saved", content: HTML_PAGE } },
      },
      preValidation: async (request) => {
        request.body ??= {};
        await enforceRateLimit(ctx, request, "public_write");
      },
    },
    async (request, reply) => {
      const found = await lookupPublicApp(ctx, request.params.appKey);
      if (found === undefined) throw new ApiError("app_not_found");
      const form = request.body;
      const token = form.token ?? "";
      const owner = await tokenOwner(ctx, found.app.id, token);
      if (owner === undefined && found.app.allowPublic !== 1) throw new ApiError("app_not_found");
      if (owner === undefined) throw new ApiError("invalid_unsubscribe_token", { message: "Invalid preference link" });
      const prefs = { moves: form.moves === "on", replies: form.replies === "on", ships: form.ships === "on" };
      await db.transaction().execute(async (trx) => {
        await writePreferences(trx, ctx.clock, found.app.id, owner.email, prefs);
        const now = isoNow(ctx.clock);
        const dropped = (await activeSubscriptions(trx, found.app.id, owner.email)).filter((s) => form[`keep_${s.id}`] !== "on").map((s) => s.id);
        if (dropped.length > 0) {
          await trx
            .updateTable("emailSubscriptions")
            .set({ status: "unsubscribed", confirmNonce: null, unsubscribedAt: now, updatedAt: now })
            .where("id", "in", dropped)
            .execute();
        }
        await recordIdempotentWrite(trx, request);
      });
      const subs = await activeSubscriptions(db, found.app.id, owner.email);
      return html(reply, 200, preferencePage(found.app, owner.email, token, prefs, subs, "Saved."));
    },
  );
}
