import {
  AppVersionSchema,
  BoardColumnSchema,
  ColumnsResponseSchema,
  CreateColumnBodySchema,
  CreateVersionBodySchema,
  IdParam,
  ReorderColumnsBodySchema,
  UpdateColumnBodySchema,
  UpdateVersionBodySchema,
  VersionsResponseSchema,
} from "@tidings/protocol";
import type { Kysely } from "kysely";
import Type from "typebox";
import type { Database } from "../db/schema.js";
import { AppParams } from "../apps/console-routes.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import { appTag, type Context } from "../context.js";
import type { App } from "../http/types.js";
import { reindex, reindexWhere } from "../search/search-index.js";
import { createColumn, deleteColumn, listColumns, reorderColumns, toColumn, updateColumn } from "./columns.js";
import { createVersion, deleteVersion, listVersions, toVersion, updateVersion } from "./versions.js";

const ColumnParams = Type.Object({ wsId: IdParam("ws"), columnId: IdParam("col") });
const VersionParams = Type.Object({ wsId: IdParam("ws"), versionId: IdParam("ver") });
const Success = Type.Object({ success: Type.Boolean() });
const tags = ["console: roadmap"];

/** Roadmap columns and versions. Reads need membership; writes need `app.configure`. */
export function roadmapConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  /** Runs a write in one transaction, then drops the cached public answers of the row's app. */
  const write = async <T extends { appId: string }>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> => {
    const result = await db.transaction().execute(work);
    await ctx.cache.invalidateTag(appTag(result.appId));
    return result;
  };

  app.get(
    "/workspaces/:wsId/apps/:appId/columns",
    { schema: { tags, summary: "All columns, hidden ones included", params: AppParams, response: { 200: ColumnsResponseSchema } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      return { columns: (await listColumns(db, appRow.id)).map(toColumn) };
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/columns",
    { schema: { tags, summary: "Add a board column to an app", params: AppParams, body: CreateColumnBodySchema, response: { 201: BoardColumnSchema } } },
    async (request, reply) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const { appId: _ignored, ...input } = request.body;
      const row = await write((trx) => createColumn(trx, ctx.clock, appRow.id, input));
      return reply.code(201).send(toColumn(row));
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/columns/reorder",
    {
      schema: {
        tags,
        summary: "Set the order of every column of the app",
        params: AppParams,
        body: ReorderColumnsBodySchema,
        response: { 200: ColumnsResponseSchema },
      },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const { rows } = await write(async (trx) => ({
        appId: appRow.id,
        rows: await reorderColumns(trx, ctx.clock, appRow.id, request.body.columnIds),
      }));
      return { columns: rows.map(toColumn) };
    },
  );

  app.put(
    "/workspaces/:wsId/columns/:columnId",
    { schema: { tags, summary: "Rename, recolour, hide/show or move a column", params: ColumnParams, body: UpdateColumnBodySchema, response: { 200: BoardColumnSchema } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      return toColumn(
        await write(async (trx) => {
          const column = await updateColumn(trx, ctx.clock, request.params.wsId, request.params.columnId, request.body);
          // Search matches column names: a rename reaches the index of the column's requests.
          if (request.body.name !== undefined) await reindexWhere(trx, ctx.db.dialect, { columnId: column.id });
          return column;
        }),
      );
    },
  );

  app.delete(
    "/workspaces/:wsId/columns/:columnId",
    { schema: { tags, summary: "Delete a column; its requests go back to review", params: ColumnParams, response: { 200: Success } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      await write(async (trx) => {
        const deleted = await deleteColumn(trx, request.params.wsId, request.params.columnId);
        for (const id of deleted.movedRequestIds) await reindex(trx, ctx.db.dialect, id);
        return deleted;
      });
      return { success: true };
    },
  );

  app.get(
    "/workspaces/:wsId/apps/:appId/versions",
    { schema: { tags, summary: "All versions, unreleased included", params: AppParams, response: { 200: VersionsResponseSchema } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      return { versions: (await listVersions(db, appRow.id)).map(toVersion) };
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/versions",
    { schema: { tags, summary: "Add a version to an app", params: AppParams, body: CreateVersionBodySchema, response: { 201: AppVersionSchema } } },
    async (request, reply) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const { appId: _ignored, ...input } = request.body;
      const row = await write((trx) => createVersion(trx, ctx.clock, appRow.id, input));
      return reply.code(201).send(toVersion(row));
    },
  );

  app.put(
    "/workspaces/:wsId/versions/:versionId",
    { schema: { tags, summary: "Update a version (label, released flag, date, description, position)", params: VersionParams, body: UpdateVersionBodySchema, response: { 200: AppVersionSchema } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      return toVersion(
        await write(async (trx) => {
          const version = await updateVersion(trx, ctx.clock, request.params.wsId, request.params.versionId, request.body);
          if (request.body.label !== undefined) await reindexWhere(trx, ctx.db.dialect, { versionId: version.id });
          return version;
        }),
      );
    },
  );

  app.delete(
    "/workspaces/:wsId/versions/:versionId",
    { schema: { tags, summary: "Delete a version; its requests keep no version", params: VersionParams, response: { 200: Success } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      await write(async (trx) => {
        const affected = await trx.selectFrom("featureRequests").select("id").where("versionId", "=", request.params.versionId).execute();
        const version = await deleteVersion(trx, request.params.wsId, request.params.versionId);
        // The requests lost their version (set null by the foreign key): their index entries too.
        for (const { id } of affected) await reindex(trx, ctx.db.dialect, id);
        return version;
      });
      return { success: true };
    },
  );
}
