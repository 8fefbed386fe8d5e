import type { AppRow } from "../apps/app-row.js";
import type { BoardRow } from "../boards/boards.js";
import type { Context } from "../context.js";
import type { listFeatureRequests } from "../feature-requests/listing.js";
import escapeHtml from "escape-html";
import type { PortalOrganisation, ResolvedFilters } from "./organisation.js";

/** What the server knows of a portal address before any script runs. */
export type PortalScreen =
  | {
      kind: "page";
      title: string;
      description: string;
      path: string;
      ogType: "website" | "article";
      body: string;
      /** The board whose own list this is (its feeds join the app's in the head). */
      board?: BoardRow | undefined;
    }
  | { kind: "redirect"; path: string }
  | { kind: "missing" };

/** What every screen is rendered from: the app, its public organisation, and the address's filters. */
export interface ScreenInput {
  ctx: Context;
  app: AppRow;
  org: PortalOrganisation;
  filters: ResolvedFilters;
  /** The app's key, as every address names it. */
  key: string;
  /** Whether anonymous visitors may see the roadmap and its requests. */
  roadmapOpen: boolean;
  /** The first page of requests on the boards shown, by `sort`. */
  list: (sort: "top" | "newest") => ReturnType<typeof listFeatureRequests>;
  /** A tag's link: the requests list filtered by it (on the board shown, if any). */
  tagHref: (slug: string) => string;
}

/** The page of a path that names no screen, or that the app does not show to anonymous visitors. */
export function signInPage(app: AppRow, path: string, what: string): PortalScreen {
  return { kind: "page", title: app.name, description: `${app.name}: ${what}`, path, ogType: "website", body: `<p>${escapeHtml(`Sign in to see the ${what}.`)}</p>` };
}
