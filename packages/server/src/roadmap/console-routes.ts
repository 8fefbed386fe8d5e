import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { columnRoutes } from "./column-routes.js";
import { versionRoutes } from "./version-routes.js";

/** Roadmap columns and versions. Reads need membership; writes need `app.configure`. */
export function roadmapConsoleRoutes(app: App, ctx: Context): void {
  columnRoutes(app, ctx);
  versionRoutes(app, ctx);
}
