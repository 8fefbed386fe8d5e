import type { Context } from "../context.js";
import { readFormBodies } from "../http/form-bodies.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { mailLinkSecret } from "../mail/link-tokens.js";
import { confirmRoutes } from "./confirm-routes.js";
import { feedRoute } from "./feed-route.js";
import { subscribeRoute } from "./subscribe-route.js";
import { unsubscribeRoutes } from "./unsubscribe-routes.js";

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
    feedRoute(app, ctx);
    subscribeRoute(app, ctx, runner);
    confirmRoutes(app, ctx);
    unsubscribeRoutes(app, ctx, runner);
  });
}
