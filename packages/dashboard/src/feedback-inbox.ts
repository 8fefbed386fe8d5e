import { truncateText } from "@tidings/protocol";

/** The triage statuses of a submission. */
export const STATUSES = ["open", "in_progress", "resolved", "archived"] as const;
/** The status filters of the inbox: the statuses, and the active ones or all. */
export const FILTERS = ["active", ...STATUSES, "all"] as const;
/** The platforms a submission may come from. */
export const PLATFORMS = ["ios", "macos", "android", "universal", "web"] as const;
/** The priorities a submission may have. */
export const PRIORITIES = ["!", "!!", "!!!"] as const;

/** The list query of the inbox filters; dates are whole UTC days, inclusive. */
export function inboxParams(filters: { status: string; q: string; platform: string; priority: string; assignee: string; from: string; to: string }, page: { limit: number; offset: number }): URLSearchParams {
  const params = new URLSearchParams({ limit: String(page.limit), offset: String(page.offset) });
  if (filters.status !== "all") params.set("triageStatus", filters.status);
  if (filters.q !== "") params.set("q", filters.q);
  if (filters.platform !== "") params.set("platform", filters.platform);
  if (filters.priority !== "") params.set("priority", filters.priority);
  if (filters.assignee !== "") params.set("assignedTo", filters.assignee);
  if (filters.from !== "") params.set("from", `${filters.from}T00:00:00.000Z`);
  if (filters.to !== "") params.set("to", `${filters.to}T23:59:59.999Z`);
  return params;
}

export interface Submission {
  submissionId: string;
  appId: string;
  appName: string;
  title: string | null;
  description: string | null;
  reporterName: string | null;
  reporterEmail: string | null;
  platform: string | null;
  appVersion: string | null;
  priority: string | null;
  assignedTo: string | null;
  triageStatus: string;
  internalNote: string | null;
  attachmentCount: number;
  featureRequest: { featureRequestId: string; title: string; linkedAt: string } | null;
  createdAt: string;
}

/** The line naming a submission in the inbox: its title, else the start of its description, cut whole characters. */
export function submissionLabel(s: Pick<Submission, "submissionId" | "title" | "description">): string {
  return s.title ?? (s.description === null ? s.submissionId : truncateText(s.description, 80));
}
