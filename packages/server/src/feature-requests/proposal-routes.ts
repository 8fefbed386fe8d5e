import { ProposeFeatureRequestBodySchema, ProposeFeatureRequestResultSchema, textLength } from "@tidings/protocol";
import { requirePublicApp } from "../apps/public-app.js";
import { appContentTag, appRequestSetTag, type Context } from "../context.js";
import { acceptFields } from "../custom-fields/form-values.js";
import { ApiError } from "../http/errors.js";
import { hasIdempotencyKey, recordIdempotentWrite } from "../http/idempotency.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import type { App } from "../http/types.js";
import { checkIntake } from "../intake/intake.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { ensureEndUser, identifyCaller, requireIdentifiedWrite, tokenHash } from "../users/identity.js";
import { createFeatureRequest } from "./feature-requests.js";
import { proposalStart } from "./app-defaults.js";
import { quickProposal } from "./quick-proposal.js";
import { errors, requireFlag, tags } from "./public-access.js";
import { boardAudience, boardsToRead } from "../boards/access.js";

/** Proposing a feature request: `POST /feature-requests`, through the intake guard. */
export function proposalRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.post(
    "/api/v1/feature-requests",
    {
      schema: {
        tags,
        summary: "Propose a feature request", readsHeaders: IDENTITY_HEADERS,
        description: "Needs `allowAnonymousFeedback` or an identified caller. Unidentified proposals wait for approval under the `anonymous` moderation policy.",
        body: ProposeFeatureRequestBodySchema,
        response: { 201: ProposeFeatureRequestResultSchema, ...errors },
      },
      // The intake order: rate limit, app known and public, anonymous flag, and only then the
      // body's validation (so an unknown app is a 404 whatever the body holds).
      preValidation: async (request) => {
        await enforceRateLimit(ctx, request, "public_write", "Too many submissions. Please try again shortly.");
        const raw = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<string, unknown>;
        const appKey = typeof raw.appKey === "string" ? raw.appKey : undefined;
        if (appKey === undefined) return;
        const { app: appRow } = await requirePublicApp(ctx, appKey);
        const token = typeof raw.requesterToken === "string" ? raw.requesterToken : undefined;
        const identity = await identifyCaller(request.headers, appRow, ctx.clock, token);
        requireFlag(appRow, appRow.allowAnonymousFeedback, identity, "Sign in is required to propose a feature request");
        requireIdentifiedWrite(appRow, identity);
      },
    },
    async (request, reply) => {
      const body = request.body;
      const appKey = body.appKey;
      const { app: appRow } = await requirePublicApp(ctx, appKey);
      const identity = await identifyCaller(request.headers, appRow, ctx.clock, body.requesterToken);
      requireFlag(appRow, appRow.allowAnonymousFeedback, identity, "Sign in is required to propose a feature request");
      requireIdentifiedWrite(appRow, identity);
      const title = body.title.trim();
      const description = (body.description ?? body.details ?? "").trim();
      // Counted as the schema's limits are: an emoji is one character, not two.
      const titleLength = textLength(title);
      if (titleLength < 3 || titleLength > 200) {
        throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { title: ["Title must be 3 to 200 characters"] } } });
      }
      // A board the caller may not see is refused like one that does not exist.
      const boardIds = body.board === undefined ? undefined : boardsToRead(await boardAudience(db, appRow.id, identity, ctx.cache), body.board);
      // Custom fields are part of the body: checked before intake counts anything.
      const fields = await acceptFields(db, appRow.id, "feature_request", boardIds?.[0], body.fields, ctx.cache);
      const approved =
        appRow.moderationPolicy === "none" || (appRow.moderationPolicy === "anonymous" && identity.identified);
      const pass = await checkIntake(ctx, appRow, {
        verificationToken: body.verificationToken ?? body.turnstileToken,
        identified: identity.identified,
        action: "feature-request",
        remoteIp: request.ip,
      });
      // PostgreSQL: a returning caller's plain proposal is one statement (see quick-proposal.ts);
      // having written nothing, the transaction below sorts out why.
      const slot = pass.slot();
      const requesterName = identity.profile?.name ?? (body.requesterName?.trim() || null);
      const requesterEmail = identity.profile?.email ?? (body.requesterEmail?.trim() || null);
      const quick =
        ctx.db.dialect === "postgres" && identity.token !== null && identity.profile === undefined && slot !== undefined && !hasIdempotencyKey(request)
          ? await quickProposal(db, ctx.cache, ctx.clock, {
              appId: appRow.id,
              hash: tokenHash(identity.token),
              slot,
              ...(boardIds === undefined ? {} : { boardId: boardIds[0]! }),
              title,
              description,
              approved,
              requesterName,
              requesterEmail,
              customFields: fields.values,
            })
          : undefined;
      const id = quick ?? (await db.transaction().execute(async (trx) => {
        // The end user before the quota row, in the order feedback takes them, so a new user
        // proposing and sending feedback at once cannot deadlock.
        // The app's defaults and the caller's end user in one read (a caller without a token
        // has no hash to find).
        const start = await proposalStart(trx, appRow.id, identity.token === null ? "" : tokenHash(identity.token));
        const endUser = identity.token === null ? null : await ensureEndUser(trx, ctx.clock, appRow.id, identity.token, identity.profile, start.endUser);
        await recordIdempotentWrite(trx, request);
        const created = await createFeatureRequest(trx, ctx.clock, ctx.db.dialect, {
          appId: appRow.id,
          ...(boardIds === undefined ? {} : { boardId: boardIds[0]! }),
          title,
          description,
          approved,
          requesterEndUserId: endUser?.id ?? null,
          requesterName,
          requesterEmail,
          createdByAdmin: false,
          actor: endUser === null ? null : `end_user:${endUser.publicId}`,
          customFields: fields.values,
        }, start.defaults);
        // The quota row last: every proposal of the workspace updates it, so its lock is held
        // only from here to the commit, not through the request's reads and inserts above.
        // Over quota, it throws and the transaction rolls the request back.
        await pass.commit(trx);
        return created.id;
      }));
      await ctx.cache.invalidateTag(appContentTag(appRow.id));
      // A proposal waiting for review lists nothing new (the count of listed requests and the
      // `trending` ranking hold public requests only; the caller's own are read fresh).
      if (approved) await ctx.cache.invalidateTag(appRequestSetTag(appRow.id));
      return reply.code(201).send({ featureRequestId: id, pending: !approved });
    },
  );
}
