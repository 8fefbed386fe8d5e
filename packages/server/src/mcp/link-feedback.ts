import { requireCapability } from "../console/capabilities.js";
import { appTag } from "../context.js";
import { getAdminFeatureRequest } from "../feature-requests/admin-records.js";
import { linkFeedback, unlinkFeedback } from "../feature-requests/feedback-links.js";
import { findSubmission } from "../feedback/inbox.js";
import { ApiError } from "../http/errors.js";
import { linkedRequestOf } from "./linked-request.js";
import { workspaceLinks, type Links } from "./links.js";
import { requestShape } from "./request-shape.js";
import { inField } from "./tool-answers.js";
import { idOf } from "./tool-inputs.js";
import { defineTool, type ToolCall } from "./tool.js";

/** The domain's refusals name no field: an unknown feedback is about `feedbackId`, the rest about `requestId`. */
async function inLinkFields<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return inField(error.code === "submission_not_found" ? "feedbackId" : "requestId", Promise.reject(error));
  }
}

/** The feedback after a change, with the request it is linked to. */
async function feedbackAfter({ ctx, access }: ToolCall, links: Links, feedbackId: string) {
  const { record } = await findSubmission(ctx.db.kysely, access.workspaceId, feedbackId);
  return { id: record.submissionId, appId: record.appId, title: record.title, reporterName: record.reporterName, linkedRequest: linkedRequestOf(record, links) };
}

/**
 * Links feedback to a request as evidence with the console's own rule (`linkFeedback`): an
 * identified reporter is counted as a voter, a link to another request moves, and linking again
 * changes nothing.
 */
export const linkFeedbackTool = defineTool({
  name: "link_feedback",
  title: "Link feedback to a request",
  description:
    "Links the feedback `feedbackId` (sub_…) to the feature request `requestId` (fr_…) as evidence, as the dashboard does: the request must be an approved, unmerged request of the feedback's app. " +
    "An identified reporter is counted as a voter of the request unless they voted already. Feedback linked to another request moves (that link, and the vote it added, are undone). " +
    "Linking again to the same request changes nothing (`alreadyLinked: true`).",
  writes: true,
  idempotent: true,
  input: {
    feedbackId: idOf("sub").describe("The feedback (sub_…), from search_feedback"),
    requestId: idOf("fr").describe("The request it is evidence for (fr_…)"),
  },
  async run(call, input) {
    const { ctx, access } = call;
    requireCapability(access.role, "triage");
    const ws = access.workspaceId;
    const { appId, changed } = await inLinkFields(linkFeedback(ctx.db, ctx.clock, ws, input.feedbackId, input.requestId));
    if (changed) await ctx.cache.invalidateTag(appTag(appId));
    const links = await workspaceLinks(ctx.db.kysely, ctx.publicBase, ws);
    const [feedback, request] = await Promise.all([feedbackAfter(call, links, input.feedbackId), getAdminFeatureRequest(ctx.db.kysely, ws, input.requestId)]);
    return { linked: changed, alreadyLinked: !changed, feedback, request: requestShape(request, links) };
  },
});

/** Undoes a feedback's link with the console's own rule (`unlinkFeedback`): the vote the link added goes with it. */
export const unlinkFeedbackTool = defineTool({
  name: "unlink_feedback",
  title: "Unlink feedback from its request",
  description:
    "Undoes the link of the feedback `feedbackId` (sub_…) to its feature request, exactly: the vote the link added goes with it, a vote the reporter cast themselves stays. " +
    "Feedback linked to nothing stays as it is (`unlinked: false`). The answer shows the request it was linked to, as it stands now.",
  writes: true,
  idempotent: true,
  input: { feedbackId: idOf("sub").describe("The feedback (sub_…)") },
  async run(call, input) {
    const { ctx, access } = call;
    requireCapability(access.role, "triage");
    const ws = access.workspaceId;
    const before = await inField("feedbackId", findSubmission(ctx.db.kysely, ws, input.feedbackId));
    const { appId, changed } = await inField("feedbackId", unlinkFeedback(ctx.db, ctx.clock, ws, input.feedbackId));
    if (changed) await ctx.cache.invalidateTag(appTag(appId));
    const links = await workspaceLinks(ctx.db.kysely, ctx.publicBase, ws);
    const was = before.record.featureRequest?.featureRequestId;
    const [feedback, request] = await Promise.all([feedbackAfter(call, links, input.feedbackId), was === undefined ? null : getAdminFeatureRequest(ctx.db.kysely, ws, was)]);
    return { unlinked: changed, feedback, previousRequest: request === null ? null : requestShape(request, links) };
  },
});
