import { PLATFORMS, PRIORITIES, TRIAGE_STATUSES } from "@tidings/protocol";
import { z } from "zod";
import { findAppInWorkspace } from "../apps/apps.js";
import { listSubmissions } from "../feedback/inbox.js";
import { linkedRequestOf } from "./linked-request.js";
import { workspaceLinks } from "./links.js";
import { excerpt } from "./excerpt.js";
import { inField } from "./tool-answers.js";
import { dateInput, idOf } from "./tool-inputs.js";
import { defineTool } from "./tool.js";

/** Lists and searches the feedback inbox, newest first, as the dashboard's inbox does. */
export const searchFeedbackTool = defineTool({
  name: "search_feedback",
  title: "List and search feedback",
  description:
    "Lists the workspace's feedback submissions (bug reports, ideas, messages sent from the apps), newest first. " +
    "Filters: app, triage status (`active` = open or in progress), platform, priority, a text the title, description or reporter holds, and a time range. " +
    "Each result has its id (for get_feedback), an excerpt, its triage state, the request it is linked to as evidence (`linkedRequest`, null when none) and a link to the dashboard's inbox.",
  writes: false,
  input: {
    appId: idOf("app").optional(),
    text: z.string().max(100).optional().describe("Words the title, description or reporter holds"),
    triageStatus: z.enum([...TRIAGE_STATUSES, "active"]).optional(),
    platform: z.enum(PLATFORMS).optional(),
    priority: z.enum(PRIORITIES).optional(),
    from: dateInput().optional().describe("Sent at or after this day or time (ISO 8601)"),
    to: dateInput().optional().describe("Sent at or before this day or time (ISO 8601)"),
    limit: z.number().int().min(1).max(50).default(20),
    offset: z.number().int().min(0).max(10_000).default(0),
  },
  async run({ ctx, access }, input) {
    const db = ctx.db.kysely;
    if (input.appId !== undefined) await inField("appId", findAppInWorkspace(db, access.workspaceId, input.appId));
    const page = await listSubmissions(
      db,
      access.workspaceId,
      { appId: input.appId, q: input.text, triageStatus: input.triageStatus, platform: input.platform, priority: input.priority, from: input.from, to: input.to },
      { limit: input.limit, offset: input.offset },
    );
    const links = await workspaceLinks(db, ctx.publicBase, access.workspaceId);
    return {
      total: page.total,
      offset: input.offset,
      hasMore: input.offset + page.submissions.length < page.total,
      feedback: page.submissions.map((s) => ({
        id: s.submissionId,
        appId: s.appId,
        title: s.title,
        description: excerpt(s.description),
        reporterName: s.reporterName,
        platform: s.platform,
        appVersion: s.appVersion,
        triageStatus: s.triageStatus,
        priority: s.priority,
        attachmentCount: s.attachmentCount,
        linkedRequest: linkedRequestOf(s, links),
        createdAt: s.createdAt,
        dashboardUrl: links.feedbackDashboardUrl(),
      })),
    };
  },
});
