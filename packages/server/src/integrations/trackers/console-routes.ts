import type { Context } from "../../context.js";
import type { App } from "../../http/types.js";
import type { JobRunner } from "../../jobs/runner.js";
import { trackerConnectionRoutes } from "./connection-routes.js";
import type { TrackerConsoleSpec } from "./console-spec.js";
import { trackerIssueRoutes } from "./issue-routes.js";

/**
 * One tracker's console routes, the same for every tracker: the app's connection at
 * `/workspaces/:wsId/apps/:appId/{provider}` (connect, change, disconnect: owners and admins, as
 * its credentials are secrets) and a request's issue at `/workspaces/:wsId/feature-requests/:id/{provider}`
 * (read by any member; create, link and unlink with `triage`).
 *
 * @example
 * ```ts
 * trackerConsoleRoutes(app, ctx, jobs, githubConsoleSpec);
 * ```
 */
export function trackerConsoleRoutes(app: App, ctx: Context, jobs: JobRunner, spec: TrackerConsoleSpec): void {
  trackerConnectionRoutes(app, ctx, jobs, spec);
  trackerIssueRoutes(app, ctx, jobs, spec);
}
