import {
  type AppPatch,
  AppCreatedSchema,
  AppPatchSchema,
  AppRecordSchema,
  AppSettingsSchema,
  CreateAppBodySchema,
  IdParam,
  SigningSecretSchema,
  WorkspaceSchema,
} from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import { appTag, type Context } from "../context.js";
import type { App } from "../http/types.js";
import { toWorkspace } from "../workspaces/workspaces.js";
import { createApp, findAppInWorkspace, rotateSigningSecret, updateApp } from "./apps.js";
import { toAppRecord, toAppSettings } from "./app-record.js";

export const AppParams = Type.Object({ wsId: IdParam("ws"), appId: IdParam("app") });
const tags = ["console: apps"];

/** Apps and their settings. Writes need `app.configure` (owner, admin). */
export function appConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get(
    "/workspaces/:wsId/apps",
    { schema: { tags, summary: "The apps of a workspace", params: WorkspaceParams, response: { 200: Type.Object({ apps: Type.Array(AppRecordSchema), total: Type.Integer() }) } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const rows = await db.selectFrom("apps").selectAll().where("workspaceId", "=", request.params.wsId).orderBy("createdAt").execute();
      return { apps: rows.map(toAppRecord), total: rows.length };
    },
  );

  app.post(
    "/workspaces/:wsId/apps",
    {
      schema: {
        tags,
        summary: "Create an app; the answer is the only time the signing secret is shown",
        params: WorkspaceParams,
        body: CreateAppBodySchema,
        response: { 201: AppCreatedSchema },
      },
    },
    async (request, reply) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const { workspaceId: _ignored, ...input } = request.body;
      const { row, signingSecret } = await db.transaction().execute((trx) => createApp(trx, ctx.clock, request.params.wsId, input));
      return reply.code(201).send({ ...toAppRecord(row), signingSecret });
    },
  );

  app.get("/workspaces/:wsId/apps/:appId", { schema: { tags, summary: "One app of a workspace (without its signing secret)", params: AppParams, response: { 200: AppRecordSchema } } }, async (request) => {
    await workspaceAccess(ctx, request, request.params.wsId);
    return toAppRecord(await findAppInWorkspace(db, request.params.wsId, request.params.appId));
  });

  const patchApp = async (request: FastifyRequest, wsId: string, appId: string, patch: AppPatch) => {
    const { role } = await workspaceAccess(ctx, request, wsId);
    requireCapability(role, "app.configure");
    const row = await db.transaction().execute((trx) => updateApp(trx, ctx.clock, wsId, appId, patch));
    await ctx.cache.invalidateTag(appTag(row.id));
    return row;
  };

  app.put(
    "/workspaces/:wsId/apps/:appId",
    { schema: { tags, summary: "Update an app (any writable field)", params: AppParams, body: AppPatchSchema, response: { 200: AppRecordSchema } } },
    async (request) => toAppRecord(await patchApp(request, request.params.wsId, request.params.appId, request.body)),
  );

  app.put(
    "/workspaces/:wsId/apps/:appId/settings",
    {
      schema: {
        tags,
        summary: "Update an app's settings (flags, platforms, limits, sdk, moderation, verification)",
        params: AppParams,
        body: AppPatchSchema,
        response: { 200: AppSettingsSchema },
      },
    },
    async (request) => toAppSettings(await patchApp(request, request.params.wsId, request.params.appId, request.body)),
  );

  app.get(
    "/workspaces/:wsId/settings",
    {
      schema: {
        tags,
        summary: "A workspace's settings page: the workspace, its apps and their settings",
        params: WorkspaceParams,
        response: {
          200: Type.Object({
            workspace: WorkspaceSchema,
            apps: Type.Array(Type.Object({ appId: Type.String(), name: Type.String(), settings: AppSettingsSchema })),
          }),
        },
      },
    },
    async (request) => {
      const { workspace } = await workspaceAccess(ctx, request, request.params.wsId);
      const rows = await db.selectFrom("apps").selectAll().where("workspaceId", "=", workspace.id).orderBy("createdAt").execute();
      return { workspace: toWorkspace(workspace), apps: rows.map((r) => ({ appId: r.id, name: r.name, settings: toAppSettings(r) })) };
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/signing-secret",
    {
      schema: {
        tags,
        summary: "Rotate the signing secret: the new one is shown once, the old one stops working at once",
        params: AppParams,
        response: { 200: SigningSecretSchema },
      },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const { wsId, appId } = request.params;
      const signingSecret = await db.transaction().execute((trx) => rotateSigningSecret(trx, ctx.clock, wsId, appId));
      await ctx.cache.invalidateTag(appTag(appId));
      return { appId, signingSecret };
    },
  );
}
