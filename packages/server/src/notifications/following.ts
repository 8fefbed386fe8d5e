import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { AppRow } from "../apps/app-row.js";
import { lookupAppById } from "../apps/public-app.js";
import { audienceSees, boardAudience } from "../boards/access.js";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { identifyCaller, requireIdentifiedWrite, type EndUserIdentity } from "../users/identity.js";

export function invalidEmail(): ApiError {
  return new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { email: ["Must be a valid email address"] } } });
}

/**
 * A request the caller may follow, with its app and the caller's identity: approved, not merged,
 * on a board the caller may read (a private board's request is followed only by the users its
 * access rule admits; anyone else gets the 404 of an unknown id). Private apps refuse like the
 * other request routes.
 */
export async function followable(ctx: Context, request: FastifyRequest, id: string): Promise<{ id: string; title: string; app: AppRow; identity: EndUserIdentity }> {
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
export function participant(app: AppRow, identity: EndUserIdentity): EndUserIdentity {
  if (app.allowAnonymousVote !== 1 && !identity.identified) throw new ApiError("authentication_required", { message: "Sign in is required to follow requests" });
  requireIdentifiedWrite(app, identity);
  return identity;
}

/** A follow the host vouched for (its SSO token carried the address): confirmed at once. */
export async function followVouched(trx: Kysely<Database>, ctx: Context, app: AppRow, featureRequestId: string, email: string, tokenHash: string): Promise<void> {
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
