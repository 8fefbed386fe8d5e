import { portalPath, type PortalRoute } from "@tidings/client";
import escapeHtml from "escape-html";
import { listColumns } from "../roadmap/columns.js";
import { signInPage, type PortalScreen, type ScreenInput } from "./portal-screen.js";
import { requestList } from "./request-html.js";

/** The roadmap: each visible column with its requests, or one column at its own address. */
export async function roadmapScreen({ ctx, app, key, roadmapOpen, list, tagHref }: ScreenInput, route: Extract<PortalRoute, { screen: "home" | "roadmap" }>): Promise<PortalScreen> {
  const db = ctx.db.kysely;
  const path = portalPath(key, route);
  if (!roadmapOpen) return signInPage(app, path, "roadmap");
  const columns = (await listColumns(db, app.id)).filter((c) => c.isVisible === 1);
  const shown = route.screen === "roadmap" && route.column !== undefined ? columns.filter((c) => c.slug === route.column) : columns;
  if (shown.length === 0 && route.screen === "roadmap" && route.column !== undefined) return { kind: "missing" };
  const items = (await list("top")).requests;
  const sections = shown.map((c) => {
    const inColumn = items.filter((i) => i.columnId === c.id);
    const href = portalPath(key, { screen: "roadmap", column: c.slug });
    return `<section class="td-column">\n<h2><a href="${escapeHtml(href)}">${escapeHtml(c.name)}</a></h2>\n${requestList(key, inColumn, "Nothing here yet.", tagHref)}\n</section>`;
  });
  const single = shown.length === 1 && route.screen === "roadmap" && route.column !== undefined ? shown[0] : undefined;
  return {
    kind: "page",
    title: single === undefined ? `Roadmap · ${app.name}` : `${single.name} · ${app.name}`,
    description: single === undefined ? `What ${app.name} is planning, building and has shipped.` : `${single.name}: requests on the ${app.name} roadmap.`,
    path,
    ogType: "website",
    body: sections.join("\n"),
  };
}
