import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { deliveryRoutes } from "./delivery-routes.js";
import { endpointRoutes } from "./endpoint-routes.js";

/**
 * Outbound webhook endpoints of an app, their delivery log, test events and redelivery. Every
 * route needs `app.configure` (owner, admin): an endpoint URL (a Slack or Discord webhook URL
 * above all) is itself a credential.
 */
export function webhookConsoleRoutes(app: App, ctx: Context, jobs: JobRunner): void {
  endpointRoutes(app, ctx);
  deliveryRoutes(app, ctx, jobs);
}
