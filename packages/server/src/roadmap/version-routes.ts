import { AppVersionSchema, CreateVersionBodySchema, IdParam, UpdateVersionBodySchema, VersionsResponseSchema } from "@tidings/protocol";
import Type from "typebox";
import { AppParams } from "../apps/console-routes.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { writeAppRow } from "../console/app-writes.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { reindex, reindexWhere } from "../search/search-index.js";
import { createVersion, deleteVersion, listVersions, toVersion, updateVersion } from "./versions.js";

const VersionParams = Type.Object({ wsId: IdParam("ws"), versionId: IdParam("ver") });
const Success = Type.Object({ success: Type.Boolean() });
const tags = ["console: roadmap"];

/** An app's versions (what requests ship in): listing, creating, changing and deleting them. */
export function versionRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

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
      const row = await writeAppRow(ctx, (trx) => createVersion(trx, ctx.clock, appRow.id, input));
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
        await writeAppRow(ctx, async (trx) => {
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
      await writeAppRow(ctx, async (trx) => {
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
