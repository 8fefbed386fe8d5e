import type { FastifyRequest } from "fastify";
import type { AppRow } from "../apps/app-row.js";
import { lookupPublicApp } from "../apps/public-app.js";
import type { Context } from "../context.js";

/** The origin of absolute links (canonical URLs, feeds, sitemap): PUBLIC_URL, else the request's. */
export function portalOrigin(ctx: Context, request: FastifyRequest): string {
  return ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
}

/** The app of a portal address: public ones only; anything else is the same 404. */
export async function publicPortalApp(ctx: Context, appKey: string): Promise<AppRow | undefined> {
  const found = /^[A-Za-z0-9_-]{1,100}$/.test(appKey) ? await lookupPublicApp(ctx, appKey) : undefined;
  return found === undefined || found.app.allowPublic !== 1 ? undefined : found.app;
}
