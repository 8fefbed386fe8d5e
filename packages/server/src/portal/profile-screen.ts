import { portalPath, type PortalRoute } from "@tidings/client";
import escapeHtml from "escape-html";
import { loadProfile } from "../users/profile.js";
import type { PortalScreen, ScreenInput } from "./portal-screen.js";
import { paragraphs } from "./screen-text.js";

/** A user's public profile with their recent comments on this app (when they show them). */
export async function profileScreen({ ctx, app, key, roadmapOpen }: ScreenInput, route: Extract<PortalRoute, { screen: "profile" }>): Promise<PortalScreen> {
  const found = await loadProfile(ctx, route.userId, key);
  if (found === undefined) return { kind: "missing" };
  const name = found.profile.displayName ?? "Anonymous";
  const comments = found.hideComments || !roadmapOpen ? [] : found.recentComments.filter((c) => c.appId === app.id);
  const commentItem = (c: (typeof comments)[number]) =>
    `<li><a href="${escapeHtml(portalPath(key, { screen: "request", id: c.featureRequestId }, c.featureRequestTitle))}">${escapeHtml(c.featureRequestTitle)}</a>\n${paragraphs(c.body)}</li>`;
  return {
    kind: "page",
    title: `${name} · ${app.name}`,
    description: `${name} on ${app.name}'s feedback board.`,
    path: portalPath(key, route),
    ogType: "website",
    body: `<h2>${escapeHtml(name)}</h2>\n${comments.length === 0 ? "" : `<ul>\n${comments.map(commentItem).join("\n")}\n</ul>`}`,
  };
}
