import {
  ChangelogFeedQuerySchema,
  ChangelogFeedSchema,
  ConfirmResultSchema,
  ErrorBodySchema,
  SubscribeBodySchema,
  SubscribeResultSchema,
  TokenBodySchema,
  UnsubscribeResultSchema,
} from "@tidings/protocol";
import escapeHtml from "escape-html";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import { lookupPublicApp, PUBLIC_CACHE_SECONDS, requirePublicApp } from "../apps/public-app.js";
import type { AppRow } from "../apps/apps.js";
import { appTag, type Context } from "../context.js";
import { prepareBody, sendCached, type PreparedBody } from "../http/caching.js";
import { ApiError } from "../http/errors.js";
import { readFormBodies } from "../http/form-bodies.js";
import { html, wantsHtml, wantsJsonOnly } from "../http/pages.js";
import { recordIdempotentWrite } from "../http/idempotency.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { normaliseEmail } from "../mail/email-address.js";
import { mailLinkSecret } from "../mail/link-tokens.js";
import { interstitial, page } from "../mail/html.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { hashUserToken } from "../users/attributes.js";
import { identifyCaller, identifyReader } from "../users/identity.js";
import { decodeFeedCursor, encodeFeedCursor } from "./cursor.js";
import { linkedRequests, toPublicEntry } from "./entries.js";
import { confirmSubscription, requestSubscription, unsubscribeByEmail, isUnsubscribeToken, unsubscribeWithToken } from "./subscriptions.js";
import { HTML_PAGE, IDENTITY_HEADERS } from "../http/openapi.js";

const tags = ["public: changelog"];
const Params = Type.Object({ appKey: Type.String({ maxLength: 128 }) });
const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 2000 })) });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 405: ErrorBodySchema, 429: ErrorBodySchema };

/** The token from `?token=` (wins), a JSON `{token}` or a form field. */
function tokenOf(request: FastifyRequest): string | undefined {
  const query = (request.query as { token?: string }).token;
  if (query !== undefined && query !== "") return query;
  const body = request.body as { token?: unknown } | undefined;
  return typeof body?.token === "string" && body.token !== "" ? body.token : undefined;
}

async function requireChangelogAccess(ctx: Context, request: FastifyRequest, appRow: AppRow): Promise<{ token: string | null; identified: boolean }> {
  const identity = await identifyReader(request.headers, appRow, ctx.clock);
  if (appRow.allowAnonymousChangelog !== 1 && !identity.identified) {
    throw new ApiError("authentication_required", { message: "Sign in is required to view this changelog" });
  }
  return identity;
}

/**
 * The changelog feed, subscribe, confirm (changelog and ship notifications) and unsubscribe.
 * Registered in a scope of its own that also reads form posts (interstitial pages and RFC 8058
 * one-click unsubscribes send `application/x-www-form-urlencoded`).
 */
export async function changelogPublicRoutes(parent: App, ctx: Context, runner: JobRunner): Promise<void> {
  // Read the link secret once now: tokens are signed inside transactions, and on SQLite (one
  // connection) a first read from outside the transaction would wait for it forever.
  await mailLinkSecret(ctx);
  await parent.register(async (app: App) => {
    await readFormBodies(app);
    const db = ctx.db.kysely;

    app.get(
      "/api/v1/public/apps/:appKey/changelog",
      {
        schema: {
          tags,
          summary: "Published release notes, newest first", readsHeaders: [...IDENTITY_HEADERS, "If-None-Match"],
          params: Params,
          querystring: ChangelogFeedQuerySchema,
          response: { 200: ChangelogFeedSchema, ...errors },
        },
      },
      async (request, reply) => {
        await enforceRateLimit(ctx, request, "public_read");
        const { app: appRow } = await requirePublicApp(ctx, request.params.appKey);
        const identity = await requireChangelogAccess(ctx, request, appRow);
        const limit = request.query.limit ?? 100;
        const cursor = request.query.cursor === undefined ? undefined : decodeFeedCursor(request.query.cursor);
        // Linked request titles are roadmap content: anonymous callers see them only when the roadmap is open.
        const showLinks = identity.identified || appRow.allowAnonymousRoadmap === 1;
        const cacheKey = `changelog:${appRow.id}:${limit}:${request.query.cursor ?? ""}:${showLinks ? 1 : 0}`;
        let body = await ctx.cache.get<PreparedBody>(cacheKey);
        if (body === undefined) {
          let query = db
            .selectFrom("changelogEntries")
            .selectAll()
            .where("appId", "=", appRow.id)
            .where("status", "=", "published")
            .where("publishedAt", "is not", null);
          if (cursor !== undefined) {
            query = query.where((eb) =>
              eb.or([eb("publishedAt", "<", cursor.publishedAt), eb.and([eb("publishedAt", "=", cursor.publishedAt), eb("id", "<", cursor.id)])]),
            );
          }
          const rows = await query.orderBy("publishedAt", "desc").orderBy("id", "desc").limit(limit + 1).execute();
          const page = rows.slice(0, limit);
          const links = showLinks ? await linkedRequests(db, page.map((r) => r.id), true) : new Map<string, { id: string; title: string }[]>();
          const last = page.at(-1);
          body = prepareBody({
            entries: page.map((r) => toPublicEntry(r, links.get(r.id) ?? [])),
            hasMore: rows.length > limit,
            nextCursor: rows.length > limit && last !== undefined ? encodeFeedCursor(last.publishedAt!, last.id) : null,
          });
          await ctx.cache.set(cacheKey, body, { ttlMs: PUBLIC_CACHE_SECONDS * 1000, tags: [appTag(appRow.id)] });
        }
        const shared = appRow.allowAnonymousChangelog === 1 && identity.token === null;
        return sendCached(request, reply, body, { shared, maxAgeSeconds: PUBLIC_CACHE_SECONDS, vary: "X-User-Token, X-User-Hash, X-SSO-Token" });
      },
    );

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

    /** GET of a mailed link: a page whose button POSTs the token; JSON-only clients get 405. */
    /**
     * A page whose button POSTs the mailed token. On a private app it shows only for a token that
     * `opensPrivate` accepts (leaving must stay possible); anything else answers as an unknown app.
     */
    const interstitialRoute = (
      path: string,
      title: string,
      explanation: string,
      button: string,
      missing: { message: string; code: "invalid_confirmation_token" | "invalid_unsubscribe_token" },
      opensPrivate: (appId: string, token: string) => Promise<boolean> = () => Promise.resolve(false),
    ) =>
      app.get(
        path,
        {
          schema: {
            tags,
            summary: `${title}: a page that POSTs the token (changes nothing)`,
            params: Params,
            querystring: TokenQuery,
            response: errors,
            documentedAnswers: { 200: { description: "The page with the button", content: HTML_PAGE } },
          },
        },
        async (request, reply) => {
          await enforceRateLimit(ctx, request, "public_write");
          const found = await lookupPublicApp(ctx, request.params.appKey);
          const token = request.query.token;
          if (found === undefined) throw new ApiError("app_not_found");
          if (found.app.allowPublic !== 1 && !(token !== undefined && token !== "" && (await opensPrivate(found.app.id, token)))) throw new ApiError("app_not_found");
          if (wantsJsonOnly(request)) throw new ApiError("post_required", { headers: { Allow: "POST" } });
          if (token === undefined || token === "") {
            if (!wantsHtml(request)) throw new ApiError(missing.code, { message: missing.message });
            return html(reply, 400, page(title, `<p>${escapeHtml(missing.message)}</p>`));
          }
          return html(reply, 200, interstitial(title, explanation, request.url, token, button));
        },
      );

    const confirmRoute = (path: string, kind: "changelog" | "ship" | "request") => {
      interstitialRoute(
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

    const unsubscribePath = "/api/v1/public/apps/:appKey/changelog/unsubscribe";
    interstitialRoute(unsubscribePath, "Unsubscribe", "Press the button to stop these mails.", "Unsubscribe", { message: "Missing unsubscribe token", code: "invalid_unsubscribe_token" }, (appId, token) =>
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
  });
}
