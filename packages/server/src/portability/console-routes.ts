import { Readable } from "node:stream";
import Type from "typebox";
import { AppParams } from "../apps/console-routes.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import { appTag, type Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { attachmentDisposition } from "../uploads/content-disposition.js";
import { ArchiveError, importArchive } from "./archive-import.js";
import { exportArchive } from "./export.js";
import { exportRequestsCsv } from "./requests-csv.js";
import { withSnapshot } from "./snapshot.js";

const tags = ["console"];
/** The media type of a Tidings archive (JSON Lines). */
export const ARCHIVE_MEDIA_TYPE = "application/x-ndjson";

const ARCHIVE_TEXT = { type: "string", description: "One JSON object a line (docs/export-backup.md)" };
const CSV_TEXT = { type: "string", description: "RFC 4180 CSV with a header line" };
const ExportQuery = Type.Object({ format: Type.Optional(Type.Union([Type.Literal("jsonl"), Type.Literal("csv")], { default: "jsonl" })) });
const ImportSummarySchema = Type.Object({
  scope: Type.Object({ kind: Type.String(), appKey: Type.Optional(Type.String()), slug: Type.Optional(Type.String()) }),
  inserted: Type.Record(Type.String(), Type.Integer()),
  existing: Type.Record(Type.String(), Type.Integer()),
  files: Type.Integer(),
});

/** `YYYY-MM-DD` of now, for download file names. */
function day(ctx: Context): string {
  return ctx.clock.now().toISOString().slice(0, 10);
}

/**
 * Export (streamed download) of an app or a workspace, and import (streamed upload) of an
 * archive into a workspace. Both need `app.configure`: an archive holds subscribers' and
 * reporters' email addresses.
 */
export function portabilityConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;
  // The archive is read as it arrives, never held whole in memory: no body limit applies.
  app.addContentTypeParser(ARCHIVE_MEDIA_TYPE, (_request, payload, done) => done(null, payload));

  const stream = (lines: AsyncGenerator<string>) => Readable.from(lines);

  app.get(
    "/workspaces/:wsId/apps/:appId/export",
    {
      schema: {
        tags,
        summary: "Download the app as a Tidings archive (JSON Lines), or its requests as CSV with ?format=csv",
        params: AppParams,
        querystring: ExportQuery,
        documentedAnswers: { 200: { description: "The archive or the CSV, as an attachment", content: { [ARCHIVE_MEDIA_TYPE]: ARCHIVE_TEXT, "text/csv": CSV_TEXT } } },
      },
    },
    async (request, reply) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const row = await db.selectFrom("apps").select(["appKey", "slug"]).where("id", "=", request.params.appId).where("workspaceId", "=", request.params.wsId).executeTakeFirst();
      if (row === undefined) throw new ApiError("app_not_found");
      const csv = request.query.format === "csv";
      const name = `${row.slug}-${csv ? "requests" : "archive"}-${day(ctx)}.${csv ? "csv" : "jsonl"}`;
      return reply
        .header("content-type", csv ? "text/csv; charset=utf-8" : `${ARCHIVE_MEDIA_TYPE}; charset=utf-8`)
        .header("content-disposition", attachmentDisposition(name))
        .header("cache-control", "no-store")
        .send(
          stream(
            withSnapshot(ctx.db, (snapshot) =>
              csv ? exportRequestsCsv(snapshot, { appKey: row.appKey }) : exportArchive(snapshot, ctx.storage, { scope: { appKey: row.appKey }, clock: ctx.clock }),
            ),
          ),
        );
    },
  );

  app.get(
    "/workspaces/:wsId/export",
    {
      schema: {
        tags,
        summary: "Download every app of the workspace as a Tidings archive (JSON Lines)",
        params: WorkspaceParams,
        documentedAnswers: { 200: { description: "The archive, as an attachment", content: { [ARCHIVE_MEDIA_TYPE]: ARCHIVE_TEXT } } },
      },
    },
    async (request, reply) => {
      const { role, workspace } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      return reply
        .header("content-type", `${ARCHIVE_MEDIA_TYPE}; charset=utf-8`)
        .header("content-disposition", attachmentDisposition(`${workspace.slug}-archive-${day(ctx)}.jsonl`))
        .header("cache-control", "no-store")
        .send(stream(withSnapshot(ctx.db, (snapshot) => exportArchive(snapshot, ctx.storage, { scope: { workspaceSlug: workspace.slug }, clock: ctx.clock }))));
    },
  );

  app.post(
    "/workspaces/:wsId/import",
    {
      schema: {
        tags,
        summary: `Import a Tidings archive (${ARCHIVE_MEDIA_TYPE} body) into this workspace; importing it again changes nothing`,
        params: WorkspaceParams,
        response: { 200: ImportSummarySchema },
        documentedBody: { [ARCHIVE_MEDIA_TYPE]: ARCHIVE_TEXT },
      },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      if (!(request.body instanceof Readable)) {
        throw new ApiError("validation_failed", { message: `Send the archive as the request body with Content-Type: ${ARCHIVE_MEDIA_TYPE}` });
      }
      try {
        return await importArchive(ctx.db, ctx.storage, request.body, { workspaceId: request.params.wsId });
      } catch (error) {
        // Read the rest of the upload before answering: a browser still sending the body would
        // see the connection close instead of the answer.
        if (!request.body.destroyed) for await (const _chunk of request.body) void _chunk;
        if (!(error instanceof ArchiveError)) throw error;
        throw new ApiError(error.conflict ? "archive_conflict" : "invalid_archive", { message: error.message, details: { line: error.line } });
      } finally {
        // Cached public answers (roadmap, counts) of the workspace's apps are out of date now.
        const apps = await db.selectFrom("apps").select("id").where("workspaceId", "=", request.params.wsId).execute();
        for (const { id } of apps) await ctx.cache.invalidateTag(appTag(id));
      }
    },
  );
}
