import { findSubmission } from "../feedback/inbox.js";
import { linkedRequestOf } from "./linked-request.js";
import { workspaceLinks } from "./links.js";
import { inField } from "./tool-answers.js";
import { idOf } from "./tool-inputs.js";
import { defineTool } from "./tool.js";

/** One feedback submission whole: text, reporter, device metadata, custom fields, triage, the request it is evidence for. */
export const getFeedbackTool = defineTool({
  name: "get_feedback",
  title: "Get a feedback submission",
  description:
    "Gets one feedback submission of the workspace by id (sub_…): its whole text, the reporter's name, the app version and platform, the device metadata the app sent (secrets already redacted), " +
    "custom field values, triage status, priority and internal note, and `linkedRequest`: the feature request it is linked to as evidence (null when none).",
  writes: false,
  input: { id: idOf("sub").describe("The submission's id (sub_…)") },
  async run({ ctx, access }, input) {
    const db = ctx.db.kysely;
    const { record, metadata } = await inField("id", findSubmission(db, access.workspaceId, input.id));
    const links = await workspaceLinks(db, ctx.publicBase, access.workspaceId);
    return {
      feedback: {
        id: record.submissionId,
        appId: record.appId,
        appName: record.appName,
        title: record.title,
        description: record.description,
        reporterName: record.reporterName,
        platform: record.platform,
        appVersion: record.appVersion,
        buildNumber: record.buildNumber,
        metadata: JSON.parse(metadata) as Record<string, unknown>,
        fields: record.fields.map((f) => ({ key: f.key, label: f.label, type: f.type, value: f.value, archived: f.archived })),
        triageStatus: record.triageStatus,
        priority: record.priority,
        assignedTo: record.assignedTo,
        internalNote: record.internalNote,
        attachmentCount: record.attachmentCount,
        linkedRequest: linkedRequestOf(record, links),
        createdAt: record.createdAt,
        dashboardUrl: links.feedbackDashboardUrl(),
      },
    };
  },
});
