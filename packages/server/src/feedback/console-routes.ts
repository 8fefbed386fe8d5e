import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { evidenceRoutes } from "./evidence-routes.js";
import { inboxRoutes } from "./inbox-routes.js";
import { triageRoutes } from "./triage-routes.js";

/**
 * The feedback inbox: list, read, triage (status, priority, assignee, note), bulk triage, and
 * link feedback to a feature request as evidence. Writes need `triage` (a new request from
 * feedback also `content.manage`).
 */
export function feedbackConsoleRoutes(app: App, ctx: Context): void {
  inboxRoutes(app, ctx);
  triageRoutes(app, ctx);
  evidenceRoutes(app, ctx);
}
