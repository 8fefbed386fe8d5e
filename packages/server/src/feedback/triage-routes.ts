import { AssignBodySchema, BulkTriageBodySchema, BulkTriageResultSchema, NoteBodySchema, PriorityBodySchema, SubmissionRecordSchema, TriageBodySchema } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import { isoNow } from "../clock.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { findSubmission } from "./inbox.js";
import { SubmissionParams, tags } from "./submission-params.js";
import { applyTriage, requireAssignee, type TriagePatch } from "./triage.js";

/** Triage: status, priority, assignee and note of one submission, and status or assignee of many at once. */
export function triageRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  const triageOne = async (request: FastifyRequest, wsId: string, id: string, patch: TriagePatch) => {
    const { role } = await workspaceAccess(ctx, request, wsId);
    requireCapability(role, "triage");
    await requireAssignee(db, wsId, patch.assignedTo);
    const updated = await db.transaction().execute((trx) => applyTriage(trx, wsId, [id], patch, isoNow(ctx.clock)));
    if (updated.length === 0) throw new ApiError("submission_not_found");
    return (await findSubmission(db, wsId, id)).record;
  };
  const one = { params: SubmissionParams, response: { 200: SubmissionRecordSchema } };

  app.patch(
    "/workspaces/:wsId/submissions/:id/triage",
    { schema: { tags, summary: "Set the triage status", ...one, body: TriageBodySchema } },
    (request) => triageOne(request, request.params.wsId, request.params.id, { triageStatus: request.body.triageStatus }),
  );
  app.put(
    "/workspaces/:wsId/submissions/:id/priority",
    { schema: { tags, summary: "Set the priority (`!`, `!!`, `!!!`, or null)", ...one, body: PriorityBodySchema } },
    (request) => triageOne(request, request.params.wsId, request.params.id, { priority: request.body.priority }),
  );
  app.put(
    "/workspaces/:wsId/submissions/:id/assign",
    { schema: { tags, summary: "Assign to a member (user id) or unassign (null); assigning an open submission moves it to in_progress", ...one, body: AssignBodySchema } },
    (request) => triageOne(request, request.params.wsId, request.params.id, { assignedTo: request.body.assignedTo }),
  );
  app.put(
    "/workspaces/:wsId/submissions/:id/note",
    { schema: { tags, summary: "Set the internal note (null or empty clears it)", ...one, body: NoteBodySchema } },
    (request) => triageOne(request, request.params.wsId, request.params.id, { internalNote: request.body.internalNote }),
  );

  app.post(
    "/workspaces/:wsId/submissions/bulk-triage",
    {
      schema: {
        tags,
        summary: "Set the triage status and/or assignee of 1–50 submissions at once",
        description: "Ids not in the workspace are skipped; the answer lists the ones updated.",
        params: WorkspaceParams,
        body: BulkTriageBodySchema,
        response: { 200: BulkTriageResultSchema },
      },
    },
    async (request) => {
      const { wsId } = request.params;
      const { role } = await workspaceAccess(ctx, request, wsId);
      requireCapability(role, "triage");
      const { submissionIds, triageStatus, assignedTo } = request.body;
      if (triageStatus === undefined && assignedTo === undefined) {
        throw new ApiError("validation_failed", { details: { formErrors: ["Send triageStatus, assignedTo or both"], fieldErrors: {} } });
      }
      await requireAssignee(db, wsId, assignedTo);
      const patch: TriagePatch = {
        ...(triageStatus === undefined ? {} : { triageStatus }),
        ...(assignedTo === undefined ? {} : { assignedTo }),
      };
      const ids = [...new Set(submissionIds)];
      const updatedIds = await db.transaction().execute((trx) => applyTriage(trx, wsId, ids, patch, isoNow(ctx.clock)));
      return { updatedCount: updatedIds.length, updatedIds };
    },
  );
}
