import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { entryReadRoutes } from "./entry-read-routes.js";
import { entryWriteRoutes } from "./entry-write-routes.js";
import { publishRoutes } from "./publish-routes.js";

/**
 * Releases: list, create, edit, delete (`content.manage`), publish, unpublish and schedule
 * (`changelog.publish`: owner and admin). Each write is one transaction and drops the app's
 * cached public answers; publishing queues the subscriber mails in the same transaction.
 */
export function changelogConsoleRoutes(app: App, ctx: Context, runner: JobRunner): void {
  entryReadRoutes(app, ctx);
  entryWriteRoutes(app, ctx, runner);
  publishRoutes(app, ctx, runner);
}
