import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { commentRoutes } from "./comment-routes.js";
import { listingRoutes } from "./listing-routes.js";
import { proposalRoutes } from "./proposal-routes.js";
import { voteRoutes } from "./vote-routes.js";

/** Listing, search, proposals, votes and comments. */
export function featureRequestPublicRoutes(app: App, ctx: Context): void {
  listingRoutes(app, ctx);
  proposalRoutes(app, ctx);
  voteRoutes(app, ctx);
  commentRoutes(app, ctx);
}
