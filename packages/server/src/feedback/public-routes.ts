import { ErrorBodySchema, FeedbackBodySchema, FeedbackResultSchema, type Platform } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import type { AppRow } from "../apps/app-row.js";
import { requirePublicApp } from "../apps/public-app.js";
import { isoNow } from "../clock.js";
import { acceptFields } from "../custom-fields/form-values.js";
import { recordFields } from "../custom-fields/record-fields.js";
import { appTag, type Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { audienceSees, boardAudience } from "../boards/access.js";
import { linkableRequest, writeLink } from "../feature-requests/feedback-links.js";
import { lockRequest } from "../feature-requests/votes-for.js";
import { recordIdempotentWrite } from "../http/idempotency.js";
import type { App } from "../http/types.js";
import { newId } from "../ids.js";
import { checkIntake } from "../intake/intake.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { uploaderHash } from "../uploads/uploads.js";
import { ensureEndUser, identifyCaller, requireIdentifiedWrite, type EndUserIdentity } from "../users/identity.js";
import { attachmentRefs, attachUploads, resolveAttachments } from "./attachments.js";
import { sanitizeMetadata } from "./metadata.js";
import { eventCompany } from "../companies/event-company.js";
import { queueWebhookEvent } from "../webhooks/events.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  402: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  429: ErrorBodySchema,
};

/** The app and caller a feedback request was admitted for, found before its body is validated. */
const admitted = new WeakMap<FastifyRequest, { app: AppRow; identity: EndUserIdentity }>();

function fieldError(field: string, message: string): ApiError {
  return new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { [field]: [message] } } });
}

/** The platforms an app accepts; empty means all. */
function allowedPlatforms(app: AppRow): string[] {
  try {
    const parsed: unknown = JSON.parse(app.allowedPlatforms);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}

/** `POST /api/v1/feedback`. */
export function feedbackPublicRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.post(
    "/api/v1/feedback",
    {
      schema: {
        tags: ["public: feedback"],
        summary: "Submit feedback", readsHeaders: ["X-App-Key", ...IDENTITY_HEADERS],
        description:
          "Order of checks: app known and public → `allowAnonymousFeedback` (401) → body, custom `fields` included (400) → platform (403) → `featureRequestId` (400 `feature_request_not_linkable` unless an approved, unmerged request of the app on a board the caller sees) → attachments (400) → " +
          "human verification (403) → subscription (402) → monthly quota (402) → write. `details` ≡ `description`, " +
          "`verificationToken` ≡ `turnstileToken`; attach up to 8 uploads by `uploadIds[]` or `attachments[]`.",
        body: FeedbackBodySchema,
        response: { 201: FeedbackResultSchema, ...errors },
      },
      // The app and the anonymous flag are checked before the body, as the intake guard's order says.
      preValidation: async (request) => {
        await enforceRateLimit(ctx, request, "feedback", "Too many submissions. Please try again shortly.");
        const raw = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<string, unknown>;
        const headerKey = request.headers["x-app-key"];
        const appKey = typeof raw.appKey === "string" ? raw.appKey : typeof headerKey === "string" ? headerKey : undefined;
        if (appKey === undefined) return;
        const { app: appRow } = await requirePublicApp(ctx, appKey.trim());
        const identity = await identifyCaller(request.headers, appRow, ctx.clock, typeof raw.userToken === "string" ? raw.userToken : undefined);
        if (appRow.allowAnonymousFeedback !== 1 && !identity.identified) {
          throw new ApiError("authentication_required", { message: "Sign in is required to send feedback" });
        }
        requireIdentifiedWrite(appRow, identity);
        admitted.set(request, { app: appRow, identity });
      },
    },
    async (request, reply) => {
      const gate = admitted.get(request);
      if (gate === undefined) throw fieldError("appKey", "Required");
      const { app: appRow, identity } = gate;
      const body = request.body;
      const title = body.title.trim();
      if (title === "") throw fieldError("title", "Required");
      const description = (body.description ?? body.details ?? "").trim();
      const fields = await acceptFields(db, appRow.id, "feedback", undefined, body.fields, ctx.cache);
      const platform: Platform = body.platform ?? "universal";
      const allowed = allowedPlatforms(appRow);
      if (allowed.length > 0 && !allowed.includes(platform)) {
        throw new ApiError("platform_not_allowed", { message: `Platform ${platform} is not allowed for this app` });
      }
      const picked = body.featureRequestId === undefined ? null : await linkableRequest(db, { appId: appRow.id }, appRow.id, body.featureRequestId);
      if (picked !== null && !audienceSees(await boardAudience(db, appRow.id, identity, ctx.cache), picked.boardId)) throw new ApiError("feature_request_not_linkable");
      const callerHash = uploaderHash(identity.token);
      const uploads = await resolveAttachments(db, appRow.id, attachmentRefs(body), callerHash);
      const metadata = sanitizeMetadata(body.metadata);

      const pass = await checkIntake(ctx, appRow, {
        verificationToken: body.verificationToken ?? body.turnstileToken,
        identified: identity.identified,
        action: "feedback",
        remoteIp: request.ip,
      });
      const now = isoNow(ctx.clock);
      const id = newId("sub", ctx.clock.now());
      const reporterName = body.reporterName?.trim() || null;
      const reporterEmail = body.reporterEmail?.trim() || null;
      await db.transaction().execute(async (trx) => {
        // The picked request's vote is taken in the voting path's lock order: the request, then the voter.
        if (picked !== null && ctx.db.dialect === "postgres") await lockRequest(trx, picked.id);
        const endUser = identity.token === null ? null : await ensureEndUser(trx, ctx.clock, appRow.id, identity.token, identity.profile);
        await trx
          .insertInto("submissions")
          .values({
            id,
            appId: appRow.id,
            workspaceId: appRow.workspaceId,
            endUserId: endUser?.id ?? null,
            title,
            description,
            reporterName,
            reporterEmail,
            platform,
            appVersion: body.appVersion?.trim() || null,
            buildNumber: body.buildNumber?.trim() || null,
            metadata: JSON.stringify(metadata),
            searchText: [title, description, reporterName ?? "", reporterEmail ?? ""].join("\n").toLowerCase(),
            triageStatus: "open",
            priority: null,
            assignedTo: null,
            internalNote: null,
            firstTriagedAt: null,
            resolvedAt: null,
            customFields: JSON.stringify(fields.values),
            createdAt: now,
            updatedAt: now,
          })
          .execute();
        await attachUploads(trx, id, uploads.map((u) => u.id), now);
        if (picked !== null) await writeLink(trx, ctx.clock, ctx.db.dialect, { id, appId: appRow.id, endUserId: endUser?.id ?? null }, picked.id);
        await queueWebhookEvent(trx, ctx.clock, appRow.id, "feedback.submitted", async () => ({
          feedback: {
            id,
            title,
            description,
            platform,
            reporterName,
            reporterEmail,
            appVersion: body.appVersion?.trim() || null,
            attachmentCount: uploads.length,
            fields: recordFields(fields.definitions, fields.values),
            createdAt: now,
          },
          company: await eventCompany(trx, endUser?.id ?? null),
        }));
        await pass.commit(trx);
        await recordIdempotentWrite(trx, request);
      });
      if (picked !== null) await ctx.cache.invalidateTag(appTag(appRow.id));
      return reply.code(201).send({ submissionId: id, forwardedToGithub: false });
    },
  );
}
