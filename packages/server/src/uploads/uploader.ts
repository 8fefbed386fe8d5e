import type { FastifyRequest } from "fastify";
import type { AppRow } from "../apps/app-row.js";
import { requirePublicApp } from "../apps/public-app.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { identifyCaller, requireIdentifiedWrite } from "../users/identity.js";
import { uploaderHash } from "./uploads.js";

/** A header's value, trimmed, when it came once and is not blank. */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The app and end user an upload is made for. */
export interface Uploader {
  app: AppRow;
  tokenHash: string | null;
}

/** The uploader behind a request for the app of `appKey`: a public app, and a caller it lets upload. */
export async function resolveUploader(ctx: Context, request: FastifyRequest, appKey: string): Promise<Uploader> {
  const { app } = await requirePublicApp(ctx, appKey);
  const identity = await identifyCaller(request.headers, app, ctx.clock);
  if (app.allowAnonymousFeedback !== 1 && !identity.identified) {
    throw new ApiError("authentication_required", { message: "Sign in is required to send feedback" });
  }
  requireIdentifiedWrite(app, identity);
  return { app, tokenHash: uploaderHash(identity.token) };
}

/** The refusal of an upload without an app key (neither a field nor `X-App-Key`). */
export function appKeyRequired(): ApiError {
  return new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { appKey: ["Required"] } } });
}
