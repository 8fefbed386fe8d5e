import { appTag, type Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { AppRow } from "./app-row.js";
import { findAppById } from "./apps.js";
import { findAppByKey } from "./app-keys.js";

/** How long public answers may be served from the shared cache (and by HTTP caches). */
export const PUBLIC_CACHE_SECONDS = 30;

/**
 * The app behind a public app key, looked up through the shared cache (dropped by any console
 * write to the app). Undefined for unknown keys. When the app is not cached, `beside` (what the
 * caller reads next by the same key) runs at the same time as the app's read, and is waited for.
 */
export async function lookupPublicApp(
  ctx: Context,
  appKey: string,
  beside?: (appKey: string) => Promise<void>,
): Promise<{ app: AppRow; workspaceSlug: string } | undefined> {
  const key = `app-by-key:${appKey}`;
  const cached = await ctx.cache.get<{ app: AppRow; workspaceSlug: string }>(key);
  if (cached !== undefined) return cached;
  const [found] = await Promise.all([findAppByKey(ctx.db.kysely, appKey), beside?.(appKey)]);
  if (found !== undefined) {
    await ctx.cache.set(key, found, { ttlMs: PUBLIC_CACHE_SECONDS * 1000, tags: [appTag(found.app.id)] });
  }
  return found;
}

/**
 * An app by id through the shared cache (dropped by any console write to the app): the lookup of
 * every vote and comment, which name a request rather than an app.
 */
export async function lookupAppById(ctx: Context, appId: string): Promise<AppRow | undefined> {
  const key = `app-by-id:${appId}`;
  const cached = await ctx.cache.get<AppRow>(key);
  if (cached !== undefined) return cached;
  const found = await findAppById(ctx.db.kysely, appId);
  if (found !== undefined) await ctx.cache.set(key, found, { ttlMs: PUBLIC_CACHE_SECONDS * 1000, tags: [appTag(found.id)] });
  return found;
}

/**
 * The app for a public endpoint: 404 `app_not_found` when unknown and, with the same answer,
 * when private, so no public endpoint tells a scanner which keys exist. `beside` as
 * {@link lookupPublicApp}.
 */
export async function requirePublicApp(
  ctx: Context,
  appKey: string,
  beside?: (appKey: string) => Promise<void>,
): Promise<{ app: AppRow; workspaceSlug: string }> {
  const found = await lookupPublicApp(ctx, appKey, beside);
  if (found === undefined || found.app.allowPublic !== 1) throw new ApiError("app_not_found");
  return found;
}
