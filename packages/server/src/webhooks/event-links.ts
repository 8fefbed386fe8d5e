import { portalPath, type PortalRoute } from "@tidings/client";
import type { RequestSnapshot } from "./request-snapshot.js";
import type { WebhookEvent } from "./event-envelope.js";

/** Where links point: the portal of the app on `PUBLIC_URL`, and the dashboard. */
export interface EventLinks {
  base: string;
}

/** The absolute address of a portal screen of the app (a request or release with its slug). */
export function portalUrl(links: EventLinks, appKey: string, route: PortalRoute, title?: string): string {
  return `${links.base}${portalPath(appKey, route, title)}`;
}

/** A request's page in the portal. */
export function requestUrl(links: EventLinks, appKey: string, request: { id: string; title: string }): string {
  return portalUrl(links, appKey, { screen: "request", id: request.id }, request.title);
}

/** A release's page in the portal, or the changelog when the entry has no id. */
export function releaseUrl(links: EventLinks, appKey: string, entry: { id?: unknown; title: string }): string {
  return typeof entry.id === "string"
    ? portalUrl(links, appKey, { screen: "release", id: entry.id }, entry.title)
    : portalUrl(links, appKey, { screen: "changelog" });
}

/**
 * The event as the `standard` format sends it: the recorded envelope with links (`url`) added to
 * the request, the merge target and the release it names. A deleted request has no page any more:
 * its link is the app's request list.
 */
export function withLinks(event: WebhookEvent, links: EventLinks): WebhookEvent {
  const data: Record<string, unknown> = { ...event.data };
  for (const key of ["request", "into"]) {
    const value = data[key] as RequestSnapshot | null | undefined;
    if (value === null || typeof value !== "object") continue;
    const url = event.type === "request.deleted" && key === "request" ? portalUrl(links, event.app.key, { screen: "requests" }) : requestUrl(links, event.app.key, value);
    data[key] = { ...value, url };
  }
  const entry = data.entry as { id?: string; title: string } | null | undefined;
  if (entry !== null && typeof entry === "object") data.entry = { ...entry, url: releaseUrl(links, event.app.key, entry) };
  return { ...event, data };
}
