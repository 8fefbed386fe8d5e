import {
  AssignBodySchema,
  BulkTriageBodySchema,
  BulkTriageResultSchema,
  FeedbackToRequestBodySchema,
  IdParam,
  LinkFeedbackBodySchema,
  NoteBodySchema,
  PriorityBodySchema,
  SubmissionDetailSchema,
  SubmissionListQuerySchema,
  SubmissionListSchema,
  SubmissionRecordSchema,
  TriageBodySchema,
} from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import { isoNow } from "../clock.js";
import { actorOf, principalOf, workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import { appTag, type Context } from "../context.js";
import { createTeamRequest } from "../feature-requests/triage.js";
import { linkFeedback, unlinkFeedback } from "../feature-requests/feedback-links.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { downloadUrl } from "../uploads/signed-links.js";
import { findSubmission, listSubmissions } from "./inbox.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { fieldFilterParams, fieldFilters } from "../custom-fields/filters.js";
import { REDACTED, TRUNCATED_SUFFIX } from "./metadata.js";
import { applyTriage, requireAssignee, type TriagePatch } from "./triage.js";

const SubmissionParams = Type.Object({ wsId: IdParam("ws"), id: IdParam("sub") });
const tags = ["console: feedback inbox"];

/**
 * The feedback inbox: list, read, triage (status, priority, assignee, note), bulk triage, and
 * link feedback to a feature request as evidence. Writes need `triage` (a new request from
 * feedback also `content.manage`).
 */
export function feedbackConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get(
    "/workspaces/:wsId/submissions",
    {
      schema: {
        tags,
        summary: "List feedback submissions, newest first",
        description:
          "Filters: `appId`, `triageStatus` (`open`, `in_progress`, `resolved`, `archived`, or `active` for the first two), `platform`, `priority`, " +
          "`assignedTo` (user id or `unassigned`), `q` (case-insensitive substring of title, description, reporter), `from`/`to` (ISO timestamps, inclusive). " +
          "snake_case spellings (`app_id`, `triage_status`, `assigned_to`) are accepted. " +
          "`field.<key>=<value>` (with `appId`) keeps submissions whose custom field equals the value (holds the option, for a multi select); every one given must match.",
        params: WorkspaceParams,
        querystring: SubmissionListQuerySchema,
        response: { 200: SubmissionListSchema },
      },
    },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const q = request.query;
      const appId = q.appId ?? q.app_id;
      // Field keys are an app's: the app must be one of this workspace's.
      const fields = fieldFilterParams(q).size === 0 ? [] : await fieldFilters(db, appId === undefined ? undefined : (await findAppInWorkspace(db, request.params.wsId, appId)).id, q);
      return listSubmissions(
        db,
        request.params.wsId,
        {
          appId,
          triageStatus: q.triageStatus ?? q.triage_status,
          platform: q.platform,
          priority: q.priority,
          assignedTo: q.assignedTo ?? q.assigned_to,
          q: q.q,
          from: q.from,
          to: q.to,
          fieldFilters: fields,
        },
        { limit: q.limit ?? 50, offset: q.offset ?? 0 },
      );
    },
  );

  app.get(
    "/workspaces/:wsId/submissions/:id",
    { schema: { tags, summary: "One submission with its metadata and attachments (signed links, valid an hour)", params: SubmissionParams, response: { 200: SubmissionDetailSchema } } },
    async (request) => {
      const { wsId, id } = request.params;
      await workspaceAccess(ctx, request, wsId);
      const { record, metadata } = await findSubmission(db, wsId, id);
      const parsed = JSON.parse(metadata) as Record<string, unknown>;
      const uploads = await db.selectFrom("uploads").selectAll().where("submissionId", "=", id).orderBy("createdAt").orderBy("id").execute();
      return {
        submission: record,
        app: { appId: record.appId, appKey: record.appKey, name: record.appName },
        metadata: Object.entries(parsed).map(([key, value]) => ({
          key,
          value,
          redacted: value === REDACTED,
          truncated: typeof value === "string" && value.endsWith(TRUNCATED_SUFFIX),
        })),
        attachments: await Promise.all(
          uploads.map(async (u) => ({
            attachmentId: u.id,
            uploadId: u.id,
            kind: u.kind,
            filename: u.filename,
            mimeType: u.mimeType,
            sizeBytes: u.size ?? 0,
            sha256: u.sha256 ?? "",
            url: await downloadUrl(ctx, u.id, "console"),
            createdAt: u.createdAt,
          })),
        ),
      };
    },
  );

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

  const linked = async (wsId: string, id: string, appId: string, changed: boolean) => {
    if (changed) await ctx.cache.invalidateTag(appTag(appId));
    return (await findSubmission(db, wsId, id)).record;
  };

  app.put(
    "/workspaces/:wsId/submissions/:id/feature-request",
    {
      schema: {
        tags,
        summary: "Link the feedback to a feature request as evidence",
        description:
          "The request must be an approved, unmerged request of the feedback's app (else 400 `feature_request_not_linkable`; unknown or another workspace's: 404). " +
          "An identified reporter (an end user with a token) is counted as a voter unless they voted already; the request's console record lists the feedback with a quote. " +
          "Linking to another request moves the link (the first is undone); linking again to the same request changes nothing.",
        ...one,
        body: LinkFeedbackBodySchema,
      },
    },
    async (request) => {
      const { wsId, id } = request.params;
      const { role } = await workspaceAccess(ctx, request, wsId);
      requireCapability(role, "triage");
      const { appId, changed } = await linkFeedback(ctx.db, ctx.clock, wsId, id, request.body.featureRequestId);
      return linked(wsId, id, appId, changed);
    },
  );

  app.delete(
    "/workspaces/:wsId/submissions/:id/feature-request",
    {
      schema: {
        tags,
        summary: "Unlink the feedback from its feature request",
        description: "Undoes the link exactly: the vote the link added goes with it; a vote the reporter cast themselves stays. Idempotent.",
        ...one,
      },
    },
    async (request) => {
      const { wsId, id } = request.params;
      const { role } = await workspaceAccess(ctx, request, wsId);
      requireCapability(role, "triage");
      const { appId, changed } = await unlinkFeedback(ctx.db, ctx.clock, wsId, id);
      return linked(wsId, id, appId, changed);
    },
  );

  app.post(
    "/workspaces/:wsId/submissions/:id/feature-request",
    {
      schema: {
        tags,
        summary: "Turn the feedback into a new feature request, linked to it",
        description:
          "Creates an approved request in the feedback's app (title and description default to the feedback's; `boardId`, `columnId` or `columnSlug` as when the team creates a request), then links the feedback to it as `PUT` does.",
        params: SubmissionParams,
        body: FeedbackToRequestBodySchema,
        response: { 201: SubmissionRecordSchema },
      },
    },
    async (request, reply) => {
      const { wsId, id } = request.params;
      const { role } = await workspaceAccess(ctx, request, wsId);
      requireCapability(role, "triage");
      requireCapability(role, "content.manage");
      const sub = (await findSubmission(db, wsId, id)).record;
      const actor = actorOf(principalOf(request));
      const { title, description, ...placement } = request.body;
      const created = await db.transaction().execute((trx) =>
        createTeamRequest({ trx, clock: ctx.clock, dialect: ctx.db.dialect, workspaceId: wsId, actor }, sub.appId, {
          title: title ?? sub.title,
          description: description ?? sub.description,
          ...placement,
        }),
      );
      await ctx.cache.invalidateTag(appTag(sub.appId));
      const { changed } = await linkFeedback(ctx.db, ctx.clock, wsId, id, created.id);
      return reply.code(201).send(await linked(wsId, id, sub.appId, changed));
    },
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
