import { AdminChangelogEntrySchema, AdminChangelogListQuerySchema, AdminChangelogListSchema } from "@tidings/protocol";
import { findAppInWorkspace } from "../apps/apps.js";
import { workspaceAccess } from "../console/auth.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { findEntryInWorkspace } from "./entries.js";
import { toAdminEntries } from "./entry-shapes.js";
import { EntryParams, tags } from "./entry-command.js";

/** Reading releases: the workspace's list (of one app, or all) and one release, with mail progress. */
export function entryReadRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get(
    "/workspaces/:wsId/changelog",
    {
      schema: {
        tags,
        summary: "Releases of the workspace (drafts, scheduled and published), newest first, with mail progress",
        params: WorkspaceParams,
        querystring: AdminChangelogListQuerySchema,
        response: { 200: AdminChangelogListSchema },
      },
    },
    async (request) => {
      const { wsId } = request.params;
      await workspaceAccess(ctx, request, wsId);
      const { appId, limit = 100, offset = 0 } = request.query;
      if (appId !== undefined) await findAppInWorkspace(db, wsId, appId);
      let query = db.selectFrom("changelogEntries as e").innerJoin("apps as a", "a.id", "e.appId").where("a.workspaceId", "=", wsId);
      if (appId !== undefined) query = query.where("e.appId", "=", appId);
      const { n } = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const rows = await query.selectAll("e").orderBy("e.createdAt", "desc").orderBy("e.id", "desc").limit(limit).offset(offset).execute();
      return { entries: await toAdminEntries(db, rows), total: Number(n), hasMore: offset + rows.length < Number(n) };
    },
  );

  app.get(
    "/workspaces/:wsId/changelog/:id",
    { schema: { tags, summary: "One release with its mail progress", params: EntryParams, response: { 200: AdminChangelogEntrySchema } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const [entry] = await toAdminEntries(db, [await findEntryInWorkspace(db, request.params.wsId, request.params.id)]);
      return entry!;
    },
  );
}
