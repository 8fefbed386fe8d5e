import { ErrorBodySchema, FollowRequestBodySchema, FollowRequestResultSchema } from "@tidings/protocol";
import escapeHtml from "escape-html";
import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import Type from "typebox";
import { lookupAppById, lookupPublicApp } from "../apps/public-app.js";
import type { AppRow } from "../apps/apps.js";
import { requestSubscription } from "../changelog/subscriptions.js";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { readFormBodies } from "../http/form-bodies.js";
import { html, wantsHtml } from "../http/pages.js";
import { recordIdempotentWrite } from "../http/idempotency.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { normaliseEmail } from "../mail/email-address.js";
import { page } from "../mail/html.js";
import { newId } from "../ids.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { hashUserToken } from "../users/attributes.js";
import { identifyCaller, requireIdentifiedWrite, type EndUserIdentity } from "../users/identity.js";
import { readPreferencesToken } from "./links.js";
import { readPreferences, writePreferences, type NotificationPreferences } from "./preferences.js";
import { HTML_PAGE, IDENTITY_HEADERS } from "../http/openapi.js";
import { audienceSees, boardAudience } from "../boards/access.js";

const tags = ["public: notifications"];
const IdParams = Type.Object({ id: Type.String({ pattern: "^fr_[0-9a-z]{26}$" }) });
const AppParams = Type.Object({ appKey: Type.String({ maxLength: 128 }) });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema };

function invalidEmail(): ApiError {
  return new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { email: ["Must be a valid email address"] } } });
}

/**
 * A request the caller may follow, with its app and the caller's identity: approved, not merged,
 * on a board the caller may read (a private board's request is followed only by the users its
 * access rule admits; anyone else gets the 404 of an unknown id). Private apps refuse like the
 * other request routes.
 */
async function followable(ctx: Context, request: FastifyRequest, id: string): Promise<{ id: string; title: string; app: AppRow; identity: EndUserIdentity }> {
  const row = await ctx.db.kysely
    .selectFrom("featureRequests")
    .select(["id", "appId", "title", "boardId"])
    .where("id", "=", id)
    .where("moderation", "=", "approved")
    .where("mergedIntoId", "is", null)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("feature_request_not_found");
  const app = await lookupAppById(ctx, row.appId);
  // A private app's request is not found, like an unknown one.
  if (app === undefined || app.allowPublic !== 1) throw new ApiError("feature_request_not_found");
  const identity = await identifyCaller(request.headers, app, ctx.clock);
  if (!audienceSees(await boardAudience(ctx.db.kysely, app.id, identity, ctx.cache), row.boardId)) throw new ApiError("feature_request_not_found");
  return { id: row.id, title: row.title, app, identity };
}

/** Following is taking part, like voting: the same flags gate it. */
function participant(app: AppRow, identity: EndUserIdentity): EndUserIdentity {
  if (app.allowAnonymousVote !== 1 && !identity.identified) throw new ApiError("authentication_required", { message: "Sign in is required to follow requests" });
  requireIdentifiedWrite(app, identity);
  return identity;
}

/** A follow the host vouched for (its SSO token carried the address): confirmed at once. */
async function followVouched(trx: Kysely<Database>, ctx: Context, app: AppRow, featureRequestId: string, email: string, tokenHash: string): Promise<void> {
  const now = isoNow(ctx.clock);
  const confirmed = { status: "confirmed", confirmNonce: null, confirmedAt: now, unsubscribedAt: null, updatedAt: now } as const;
  await trx
    .insertInto("emailSubscriptions")
    .values({
      id: newId("esub", ctx.clock.now()),
      appId: app.id,
      kind: "request",
      featureRequestId,
      email,
      subscriberTokenHash: tokenHash,
      confirmSentAt: null,
      notifiedAt: null,
      createdAt: now,
      ...confirmed,
    })
    .onConflict((oc) => oc.columns(["appId", "kind", "featureRequestId", "email"]).doUpdateSet(confirmed))
    .execute();
}

/** The address and app behind a preference-page token, or undefined when it is not authentic or not this app's. */
async function tokenOwner(ctx: Context, appId: string, token: string | undefined): Promise<{ email: string } | undefined> {
  if (token === undefined || token === "") return undefined;
  const subscriptionId = await readPreferencesToken(ctx, token);
  if (subscriptionId === undefined) return undefined;
  return ctx.db.kysely.selectFrom("emailSubscriptions").select("email").where("id", "=", subscriptionId).where("appId", "=", appId).executeTakeFirst();
}

async function activeSubscriptions(db: Kysely<Database>, appId: string, email: string) {
  return db
    .selectFrom("emailSubscriptions as s")
    .leftJoin("featureRequests as fr", "fr.id", "s.featureRequestId")
    .select(["s.id", "s.kind", "fr.title"])
    .where("s.appId", "=", appId)
    .where("s.email", "=", email)
    .where("s.status", "=", "confirmed")
    .orderBy("s.createdAt")
    .execute();
}

function preferencePage(app: AppRow, email: string, token: string, prefs: NotificationPreferences, subs: Awaited<ReturnType<typeof activeSubscriptions>>, notice: string | null): string {
  const box = (name: string, checked: boolean, label: string) =>
    `<label style="display:block"><input type="checkbox" name="${escapeHtml(name)}" value="on"${checked ? " checked" : ""}> ${escapeHtml(label)}</label>`;
  const follows = subs.filter((s) => s.kind !== "changelog" && s.title !== null);
  const changelog = subs.some((s) => s.kind === "changelog");
  return page(
    `Notifications from ${app.name}`,
    [
      `<h1>Notifications from ${escapeHtml(app.name)}</h1>`,
      `<p>For ${escapeHtml(email)}.</p>`,
      notice === null ? "" : `<p role="status"><strong>${escapeHtml(notice)}</strong></p>`,
      `<form method="post" action="/api/v1/public/apps/${encodeURIComponent(app.appKey)}/notifications">`,
      `<input type="hidden" name="token" value="${escapeHtml(token)}">`,
      `<fieldset><legend>About the requests I follow, tell me when</legend>`,
      box("moves", prefs.moves, "it moves on the roadmap"),
      box("replies", prefs.replies, "the team replies"),
      box("ships", prefs.ships, "it ships, with the release notes"),
      `</fieldset>`,
      follows.length === 0 && !changelog
        ? "<p>You follow nothing here any more.</p>"
        : `<fieldset><legend>Keep receiving</legend>${follows.map((s) => box(`keep_${s.id}`, true, s.kind === "ship" ? `“${s.title ?? ""}” ships` : `“${s.title ?? ""}”`)).join("")}${changelog ? box(`keep_${subs.find((s) => s.kind === "changelog")!.id}`, true, "All release notes") : ""}</fieldset>`,
      `<p>Mails are batched: at most one an hour.</p>`,
      `<button type="submit">Save</button></form>`,
    ].join("\n"),
  );
}

/**
 * Following a request (`POST`/`DELETE …/feature-requests/<id>/subscription`) and the preference
 * page mailed with every digest (`GET`/`POST …/apps/<APP_KEY>/notifications?token=…`). Registered
 * in a scope of their own that reads form posts.
 */
export async function notificationPublicRoutes(parent: App, ctx: Context, runner: JobRunner): Promise<void> {
  await parent.register(async (app: App) => {
    await readFormBodies(app);
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
          const row = await trx
            .selectFrom("emailSubscriptions")
            .select("status")
            .where("appId", "=", fr.app.id)
            .where("kind", "=", "request")
            .where("featureRequestId", "=", fr.id)
            .where("email", "=", email)
            .executeTakeFirst();
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
  });
}
