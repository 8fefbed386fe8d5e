import { ErrorBodySchema } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import type { AppRow } from "../apps/app-row.js";
import { lookupAppById } from "../apps/public-app.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { EndUserIdentity } from "../users/identity.js";
import { audienceSees, boardAudience } from "../boards/access.js";

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
