import type { RequestSnapshot, WebhookEvent } from "./events.js";

/** A readable message about an event, before Slack or Discord markup. */
export interface EventMessage {
  title: string;
  /** Where the reader goes to see it: the request in the portal, the release, the inbox. */
  url: string;
  /** A paragraph of user text (description, comment), plain. */
  body: string;
  fields: { name: string; value: string }[];
  /** Small print: the app's name. */
  footer: string;
}

/** Where links point: the portal of the app on `PUBLIC_URL`, and the dashboard. */
export interface EventLinks {
  base: string;
}

/** The portal page of the app, opened on `tab`. */
export function portalUrl(links: EventLinks, appKey: string, tab: "requests" | "changelog" | "feedback" | "roadmap"): string {
  return `${links.base}/p/${encodeURIComponent(appKey)}#${tab}`;
}

/**
 * The event as the `standard` format sends it: the recorded envelope with links (`url`) added to
 * the request, the merge target and the release it names.
 */
export function withLinks(event: WebhookEvent, links: EventLinks): WebhookEvent {
  const requests = portalUrl(links, event.app.key, "requests");
  const data: Record<string, unknown> = { ...event.data };
  for (const key of ["request", "into"]) {
    const value = data[key];
    if (value !== null && typeof value === "object") data[key] = { ...value, url: requests };
  }
  const entry = data.entry;
  if (entry !== null && typeof entry === "object") data.entry = { ...entry, url: portalUrl(links, event.app.key, "changelog") };
  return { ...event, data };
}

function requestFields(request: RequestSnapshot): EventMessage["fields"] {
  return [
    { name: "Status", value: request.status?.name ?? "None" },
    { name: "Votes", value: String(request.voteCount) },
  ];
}

interface Entry {
  title: string;
  versionLabel: string | null;
  body: string;
}
interface Comment {
  body: string;
  authorName: string | null;
  isTeam: boolean;
}
interface Feedback {
  title: string;
  description: string;
  platform: string;
  reporterName: string | null;
}
interface Subscriber {
  email: string;
  kind: string;
}

/**
 * The readable message of an event (what Slack and Discord show): a title, a link, the user's
 * text and the request's status and vote count.
 *
 * @example
 * ```ts
 * describeEvent(event, { base: "https://feedback.example.com" }).title; // "New request: Dark mode"
 * ```
 */
export function describeEvent(event: WebhookEvent, links: EventLinks): EventMessage {
  const footer = event.app.name;
  const requestsUrl = portalUrl(links, event.app.key, "requests");
  const data = event.data;
  const request = data.request as RequestSnapshot | undefined;
  switch (event.type) {
    case "request.created":
      return { title: `New request: ${request!.title}`, url: requestsUrl, body: request!.description, fields: requestFields(request!), footer };
    case "request.status_changed": {
      const previous = data.previousStatus as { name: string } | null;
      const to = request!.status?.name ?? "None";
      return {
        title: `${request!.title} moved to ${to}`,
        url: requestsUrl,
        body: "",
        fields: [...(previous === null ? [] : [{ name: "From", value: previous.name }]), ...requestFields(request!)],
        footer,
      };
    }
    case "request.merged": {
      const into = data.into as RequestSnapshot;
      return { title: `${request!.title} merged into ${into.title}`, url: requestsUrl, body: "", fields: requestFields(into), footer };
    }
    case "request.deleted":
      return { title: `Request deleted: ${request!.title}`, url: requestsUrl, body: "", fields: requestFields(request!), footer };
    case "comment.created": {
      const comment = data.comment as Comment;
      const author = comment.isTeam ? `${comment.authorName ?? "Team"} (team)` : (comment.authorName ?? "Anonymous");
      return { title: `New comment on ${request!.title}`, url: requestsUrl, body: comment.body, fields: [{ name: "By", value: author }, ...requestFields(request!)], footer };
    }
    case "vote.added":
    case "vote.removed":
      return {
        title: `${event.type === "vote.added" ? "Vote added to" : "Vote removed from"} ${request!.title}`,
        url: requestsUrl,
        body: "",
        fields: requestFields(request!),
        footer,
      };
    case "feedback.submitted": {
      const feedback = data.feedback as Feedback;
      return {
        title: `New feedback: ${feedback.title}`,
        url: `${links.base}/admin`,
        body: feedback.description,
        fields: [
          { name: "From", value: feedback.reporterName ?? "Anonymous" },
          { name: "Platform", value: feedback.platform },
        ],
        footer,
      };
    }
    case "changelog.published": {
      const entry = data.entry as Entry;
      return {
        title: `Released: ${entry.title}${entry.versionLabel === null ? "" : ` (${entry.versionLabel})`}`,
        url: portalUrl(links, event.app.key, "changelog"),
        body: entry.body,
        fields: [],
        footer,
      };
    }
    case "subscriber.confirmed": {
      const subscriber = data.subscriber as Subscriber;
      return {
        title: `New ${subscriber.kind === "changelog" ? "release notes" : "ship notification"} subscriber`,
        url: portalUrl(links, event.app.key, "changelog"),
        body: "",
        fields: [{ name: "Email", value: subscriber.email }],
        footer,
      };
    }
    case "webhook.test":
      return { title: "Test event from Tidings", url: requestsUrl, body: "This endpoint receives events from Tidings.", fields: [], footer };
  }
}
