import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { memberRoutes } from "./member-routes.js";
import { tokenRoutes } from "./token-routes.js";
import { workspaceRoutes } from "./workspace-routes.js";

// Other areas still name the workspace route params through this module.

/** `/me`, workspaces, members and API tokens. */
export function consoleRoutes(app: App, ctx: Context): void {
  workspaceRoutes(app, ctx);
  memberRoutes(app, ctx);
  tokenRoutes(app, ctx);
}
