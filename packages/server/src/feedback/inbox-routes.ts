import { SubmissionDetailSchema, SubmissionListQuerySchema, SubmissionListSchema } from "@tidings/protocol";
import { findAppInWorkspace } from "../apps/apps.js";
import { workspaceAccess } from "../console/auth.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import type { Context } from "../context.js";
import { fieldFilterParams, fieldFilters } from "../custom-fields/filters.js";
import type { App } from "../http/types.js";
import { downloadUrl } from "../uploads/signed-links.js";
import { findSubmission, listSubmissions } from "./inbox.js";
import { REDACTED, TRUNCATED_SUFFIX } from "./metadata.js";
import { SubmissionParams, tags } from "./submission-params.js";

/** Reading the inbox: the filtered list, and one submission with its metadata and attachments. */
export function inboxRoutes(app: App, ctx: Context): void {
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
}
