import { portalUrl, releaseUrl, requestUrl, type EventLinks } from "./event-links.js";
import type { RequestSnapshot } from "./request-snapshot.js";
import type { WebhookEvent } from "./event-envelope.js";

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

function requestFields(request: RequestSnapshot): EventMessage["fields"] {
  return [
    { name: "Status", value: request.status?.name ?? "None" },
    { name: "Votes", value: String(request.voteCount) },
  ];
}

interface Entry {
  id?: string;
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
interface Company {
  externalId: string;
  name: string | null;
  mrr: number | null;
  currency: string;
}
interface Subscriber {
  email: string;
  kind: string;
}

/** The customer behind a vote or feedback: their company and its MRR (events before companies have none). */
function companyFields(company: Company | null | undefined): Array<{ name: string; value: string }> {
  if (company === null || company === undefined) return [];
  const mrr = company.mrr === null ? "" : ` (${company.currency} ${company.mrr}/month)`;
  return [{ name: "Company", value: `${company.name ?? company.externalId}${mrr}` }];
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
  const data = event.data;
  const request = data.request as RequestSnapshot | undefined;
  const requestsUrl = request === undefined ? portalUrl(links, event.app.key, { screen: "requests" }) : requestUrl(links, event.app.key, request);
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
      return { title: `${request!.title} merged into ${into.title}`, url: requestUrl(links, event.app.key, into), body: "", fields: requestFields(into), footer };
    }
    case "request.deleted":
      return { title: `Request deleted: ${request!.title}`, url: portalUrl(links, event.app.key, { screen: "requests" }), body: "", fields: requestFields(request!), footer };
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
        fields: [...companyFields(data.company as Company | null | undefined), ...requestFields(request!)],
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
          ...companyFields(data.company as Company | null | undefined),
        ],
        footer,
      };
    }
    case "changelog.published": {
      const entry = data.entry as Entry;
      return {
        title: `Released: ${entry.title}${entry.versionLabel === null ? "" : ` (${entry.versionLabel})`}`,
        url: releaseUrl(links, event.app.key, entry),
        body: entry.body,
        fields: [],
        footer,
      };
    }
    case "subscriber.confirmed": {
      const subscriber = data.subscriber as Subscriber;
      return {
        title: `New ${subscriber.kind === "changelog" ? "release notes" : "ship notification"} subscriber`,
        url: portalUrl(links, event.app.key, { screen: "changelog" }),
        body: "",
        fields: [{ name: "Email", value: subscriber.email }],
        footer,
      };
    }
    case "webhook.test":
      return { title: "Test event from Tidings", url: requestsUrl, body: "This endpoint receives events from Tidings.", fields: [], footer };
  }
}
