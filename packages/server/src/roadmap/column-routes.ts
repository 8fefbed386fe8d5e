import { BoardColumnSchema, ColumnsResponseSchema, CreateColumnBodySchema, IdParam, ReorderColumnsBodySchema, UpdateColumnBodySchema } from "@tidings/protocol";
import Type from "typebox";
import { AppParams } from "../apps/console-routes.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { writeAppRow } from "../console/app-writes.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { reindex, reindexWhere } from "../search/search-index.js";
import { createColumn, deleteColumn, listColumns, reorderColumns, toColumn, updateColumn } from "./columns.js";

const ColumnParams = Type.Object({ wsId: IdParam("ws"), columnId: IdParam("col") });
const Success = Type.Object({ success: Type.Boolean() });
const tags = ["console: roadmap"];

/** The roadmap's columns: listing, creating, reordering, changing and deleting them. */
export function columnRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

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
      const row = await writeAppRow(ctx, (trx) => createColumn(trx, ctx.clock, appRow.id, input));
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
      const { rows } = await writeAppRow(ctx, async (trx) => ({
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
        await writeAppRow(ctx, async (trx) => {
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
      await writeAppRow(ctx, async (trx) => {
        const deleted = await deleteColumn(trx, request.params.wsId, request.params.columnId);
        for (const id of deleted.movedRequestIds) await reindex(trx, ctx.db.dialect, id);
        return deleted;
      });
      return { success: true };
    },
  );
}
