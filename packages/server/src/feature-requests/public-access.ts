import { ErrorBodySchema } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import type { AppRow } from "../apps/app-row.js";
import { lookupAppById, PUBLIC_CACHE_SECONDS } from "../apps/public-app.js";
import { appTag, type Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { EndUserIdentity } from "../users/identity.js";
import { audienceSees, boardAudience } from "../boards/access.js";
import { findPublicRequest } from "./public-request.js";

/** The OpenAPI tag of every public feature-request route. */
export const tags = ["public: feature requests"];
/** A feature request's id in a route's path. */
export const IdParams = Type.Object({ id: Type.String({ pattern: "^fr_[0-9a-z]{26}$" }) });
/** The refusals every public feature-request route may answer. */
export const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema };

/** A header's value, when it came once. */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** Refuses a caller who is not identified when the app's `flag` says anonymous use is off. */
export function requireFlag(app: AppRow, flag: 0 | 1, identity: EndUserIdentity, message: string): void {
  if (flag !== 1 && !identity.identified) throw new ApiError("authentication_required", { message });
}

/** The app of a request found by id; a private app's request is not found, like an unknown one. */
export async function appOfRequest(ctx: Context, appId: string): Promise<AppRow> {
  const app = await lookupAppById(ctx, appId);
  if (app === undefined || app.allowPublic !== 1) throw new ApiError("feature_request_not_found");
  return app;
}

/** Refuses a request on a private board the caller may not see as not found, like an unknown one. */
export async function requireVisibleBoard(ctx: Context, app: AppRow, identity: EndUserIdentity, boardId: string): Promise<void> {
  if (!audienceSees(await boardAudience(ctx.db.kysely, app.id, identity, ctx.cache), boardId)) throw new ApiError("feature_request_not_found");
}

/**
 * A public request's id, app and board for a vote or a comment, through the shared cache
 * (console writes to the app, the only writes that hide a request or move it to another board,
 * drop it). A stale entry costs nothing: the write re-checks that the request is public inside
 * its transaction, under the request's lock (see `applyVote`, `addComment`'s `publicOnly`).
 * Unknown ids are not cached (the lookup throws 404).
 */
export async function writablePublicRequest(ctx: Context, id: string): Promise<{ id: string; appId: string; boardId: string }> {
  const key = `fr-public:${id}`;
  const cached = await ctx.cache.get<{ id: string; appId: string; boardId: string }>(key);
  if (cached !== undefined) return cached;
  const found = await findPublicRequest(ctx.db.kysely, id);
  await ctx.cache.set(key, found, { ttlMs: PUBLIC_CACHE_SECONDS * 1000, tags: [appTag(found.appId)] });
  return found;
}
