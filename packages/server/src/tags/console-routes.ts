import { BulkTagBodySchema, BulkTagResponseSchema, CreateTagBodySchema, IdParam, TagSchema, TagsResponseSchema, UpdateTagBodySchema } from "@tidings/protocol";
import type { Kysely } from "kysely";
import Type from "typebox";
import { AppParams } from "../apps/console-routes.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import type { App } from "../http/types.js";
import { bulkTag } from "./request-tags.js";
import { createTag, deleteTag, findTagInWorkspace, listTags, tagCounts, toTag, updateTag, type TagRow } from "./tags.js";
import { writeAppRow } from "../console/app-writes.js";

const TagParams = Type.Object({ wsId: IdParam("ws"), tagId: IdParam("tag") });
const Success = Type.Object({ success: Type.Boolean() });
const tags = ["console: tags"];

/** Tags of an app. Reads need membership; managing tags needs `app.configure`; tagging requests `content.manage`. */
export function tagConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  /** Runs a write in one transaction, then drops the cached public answers of the tag's app. */
  const write = <T extends { appId: string }>(work: (trx: Kysely<Database>) => Promise<T>) => writeAppRow(ctx, work);
  const withCount = async (row: TagRow) => toTag(row, (await tagCounts(db, row.appId)).get(row.id) ?? 0);

  app.get(
    "/workspaces/:wsId/apps/:appId/tags",
    { schema: { tags, summary: "Every tag of an app, team-only ones included, by name", params: AppParams, response: { 200: TagsResponseSchema } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const [rows, counts] = await Promise.all([listTags(db, appRow.id), tagCounts(db, appRow.id)]);
      return { tags: rows.map((row) => toTag(row, counts.get(row.id) ?? 0)) };
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/tags",
    { schema: { tags, summary: "Add a tag to an app", params: AppParams, body: CreateTagBodySchema, response: { 201: TagSchema } } },
    async (request, reply) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const row = await write((trx) => createTag(trx, ctx.clock, appRow.id, request.body));
      return reply.code(201).send(toTag(row, 0));
    },
  );

  app.patch(
    "/workspaces/:wsId/tags/:tagId",
    { schema: { tags, summary: "Rename, recolour or change the visibility of a tag", params: TagParams, body: UpdateTagBodySchema, response: { 200: TagSchema } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      return withCount(await write((trx) => updateTag(trx, ctx.clock, request.params.wsId, request.params.tagId, request.body)));
    },
  );

  app.delete(
    "/workspaces/:wsId/tags/:tagId",
    { schema: { tags, summary: "Delete a tag; it comes off every request", params: TagParams, response: { 200: Success } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      await findTagInWorkspace(db, request.params.wsId, request.params.tagId);
      await write((trx) => deleteTag(trx, request.params.wsId, request.params.tagId));
      return { success: true };
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/feature-requests/tags",
    {
      schema: {
        tags,
        summary: "Add and remove tags on many requests at once",
        description:
          "Every tag id must be one of the app's tags (404 `tag_not_found` otherwise); request ids of other apps are skipped. A request carries at most 10 tags: an addition past that is refused whole with 400 `too_many_tags`, nothing written.",
        params: AppParams,
        body: BulkTagBodySchema,
        response: { 200: BulkTagResponseSchema },
      },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "content.manage");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const result = await write(async (trx) => ({ appId: appRow.id, ...(await bulkTag(trx, ctx.clock, appRow.id, request.body)) }));
      return { added: result.added, removed: result.removed };
    },
  );
}
