import type { SubmissionRecord } from "@tidings/protocol";
import type { Links } from "./links.js";

/**
 * The request a feedback is evidence for, as the feedback tools answer it: its id and title,
 * when it was linked and its dashboard page; null when the feedback is linked to none.
 *
 * @example
 * ```ts
 * linkedRequestOf(record, links); // { id: "fr_…", title: "Dark mode", linkedAt: "2026-03-01T09:00:00.000Z", dashboardUrl: "https://…/requests/fr_…" }
 * ```
 */
export function linkedRequestOf(record: Pick<SubmissionRecord, "appId" | "featureRequest">, links: Links) {
  const linked = record.featureRequest;
  if (linked === null) return null;
  return { id: linked.featureRequestId, title: linked.title, linkedAt: linked.linkedAt, dashboardUrl: links.requestDashboardUrl(record.appId, linked.featureRequestId) };
}
