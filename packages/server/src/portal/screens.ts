import { portalPath, type PortalRoute } from "@tidings/client";
import { sdkOf, type AppRow } from "../apps/app-row.js";
import type { Context } from "../context.js";
import { listFeatureRequests } from "../feature-requests/listing.js";
import { listAddress, parsePortalAddress } from "./addresses.js";
import { changelogScreen } from "./changelog-screen.js";
import { hasSeveralBoards, resolveFilters, type PortalOrganisation, type ResolvedFilters } from "./organisation.js";
import type { PortalScreen } from "./portal-screen.js";
import { profileScreen } from "./profile-screen.js";
import { requestScreen } from "./request-screen.js";
import { requestsScreen } from "./requests-screen.js";
import { roadmapScreen } from "./roadmap-screen.js";

/** Requests shown on a server-rendered list (the app loads the rest). */
const LIST_LIMIT = 50;

/**
 * Loads and renders the screen of a portal address (`rest` is the path after `/p/<APP_KEY>`,
 * `tags` its `tag` parameters) as an anonymous visitor sees it: the same requests, comments and
 * releases the public API answers without a user token, under the app's anonymous-access
 * settings, on its public boards only. Wrong or missing slugs redirect to the canonical address;
 * an unknown or private board, or an unknown or team-only tag, is missing.
 *
 * @example
 * ```ts
 * await loadScreen(ctx, app, org, "/requests/fr_…"); // { kind: "redirect", path: "/p/app_demo/requests/fr_…-dark-mode" }
 * ```
 */
export async function loadScreen(ctx: Context, app: AppRow, org: PortalOrganisation, rest: string, tags: readonly string[] = []): Promise<PortalScreen> {
  const address = parsePortalAddress(rest);
  if (address === null) return { kind: "missing" };
  const { route, board } = address;
  // Tags filter the requests list; elsewhere they are left alone, like any other parameter.
  const filters = resolveFilters(org, { board, tags: route.screen === "requests" ? tags : [] });
  if (filters === undefined) return { kind: "missing" };
  // With one board, its list is the requests list: one address for it, the one links already use.
  if (filters.board !== undefined && !hasSeveralBoards(org)) return { kind: "redirect", path: portalPath(app.appKey, route) };
  const sections = portalSections(app);
  if (route.screen === "home") {
    // The first section the app shows, as the portal app opens it, at the home address.
    const first = sections[0];
    if (first === undefined) return { kind: "page", title: app.name, description: app.name, path: portalPath(app.appKey, route), ogType: "website", body: "" };
    const screen = await render(ctx, app, org, { screen: first }, { board: undefined, tags: [] });
    return screen.kind === "page" ? { ...screen, path: portalPath(app.appKey, route) } : screen;
  }
  const section = SECTION_OF[route.screen];
  if (section !== undefined && !sections.includes(section) && !(route.screen === "request" && sections.includes("roadmap"))) {
    const path = route.screen === "requests" ? listAddress(app.appKey, { board, tags: [] }) : portalPath(app.appKey, route);
    return { kind: "page", title: app.name, description: app.name, path, ogType: "website", body: "<p>This page is not available.</p>" };
  }
  return render(ctx, app, org, route, filters);
}

type Section = "roadmap" | "requests" | "changelog" | "feedback";
const SECTION_OF: Partial<Record<PortalRoute["screen"], Section>> = {
  roadmap: "roadmap",
  requests: "requests",
  request: "requests",
  changelog: "changelog",
  release: "changelog",
  feedback: "feedback",
};

/** The sections the app's `sdk.features` show, in the portal's order (its tabs). */
export function portalSections(app: AppRow): Section[] {
  const features = sdkOf(app).features;
  const shown: Record<Section, boolean> = { roadmap: features.roadmap, requests: features.featureRequests, changelog: features.changelog, feedback: features.feedback };
  return (["roadmap", "requests", "changelog", "feedback"] as const).filter((section) => shown[section]);
}

async function render(ctx: Context, app: AppRow, org: PortalOrganisation, route: PortalRoute, filters: ResolvedFilters): Promise<PortalScreen> {
  const db = ctx.db.kysely;
  const key = app.appKey;
  const roadmapOpen = app.allowAnonymousRoadmap === 1;
  // Portal pages are the same for every visitor: private boards never appear on them.
  const boardIds = org.boardIds;
  const list = (sort: "top" | "newest") =>
    listFeatureRequests(db, ctx.db.dialect, ctx.clock, {
      appId: app.id,
      viewerEndUserId: null,
      limit: LIST_LIMIT,
      offset: 0,
      cursor: undefined,
      versionId: undefined,
      boardIds: filters.board === undefined ? boardIds : [filters.board.id],
      tagIds: filters.tags.map((t) => t.id),
      q: undefined,
      sort,
    });
  const tagHref = (slug: string) => listAddress(key, { board: filters.board?.slug, tags: [slug] });

  const input = { ctx, app, org, filters, key, roadmapOpen, list, tagHref };
  switch (route.screen) {
    case "home":
    case "roadmap":
      return roadmapScreen(input, route);
    case "requests":
      return requestsScreen(input);
    case "request":
      return requestScreen(input, route);
    case "changelog":
    case "release":
      return changelogScreen(input, route);
    case "feedback":
      return { kind: "page", title: `Feedback · ${app.name}`, description: `Send feedback to the ${app.name} team.`, path: portalPath(key, route), ogType: "website", body: "<h2>Send feedback</h2>" };
    case "profile":
      return profileScreen(input, route);
  }
}
