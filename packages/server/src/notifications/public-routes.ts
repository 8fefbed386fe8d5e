import type { Context } from "../context.js";
import { readFormBodies } from "../http/form-bodies.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { followRoutes } from "./follow-routes.js";
import { preferenceRoutes } from "./preference-routes.js";

/**
 * Following a request and the preference page mailed with every digest, registered in a scope of
 * their own that reads form posts.
 */
export async function notificationPublicRoutes(parent: App, ctx: Context, runner: JobRunner): Promise<void> {
  await parent.register(async (app: App) => {
    await readFormBodies(app);
    followRoutes(app, ctx, runner);
    preferenceRoutes(app, ctx);
  });
}
