import {
  AdminChangelogEntrySchema,
  AdminChangelogListQuerySchema,
  AdminChangelogListSchema,
  CreateChangelogBodySchema,
  IdParam,
  UpdateChangelogBodySchema,
} from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import Type from "typebox";
import { findAppInWorkspace } from "../apps/apps.js";
import { isoNow } from "../clock.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability, type Capability } from "../console/capabilities.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import { appTag, type Context } from "../context.js";
import type { Database } from "../db/schema.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { findSegmentInApp } from "../segments/segments.js";
import { entryVersion, findEntryInWorkspace, insertEntry, setLinks, toAdminEntries } from "./entries.js";
import { publishEntry } from "./publishing.js";

const tags = ["console: changelog"];
const EntryParams = Type.Object({ wsId: IdParam("ws"), id: IdParam("cl") });

/**
 * Releases: list, create, edit, delete (`content.manage`), publish, unpublish and schedule
 * (`changelog.publish`: owner and admin). Each write is one transaction and drops the app's
 * cached public answers; publishing queues the subscriber mails in the same transaction.
 */
export function changelogConsoleRoutes(app: App, ctx: Context, runner: JobRunner): void {
  const db = ctx.db.kysely;

  const command = async (
    request: FastifyRequest,
    wsId: string,
    capabilities: readonly Capability[],
    work: (trx: Kysely<Database>) => Promise<{ id: string; appId: string }>,
  ) => {
    const { role } = await workspaceAccess(ctx, request, wsId);
    for (const capability of capabilities) requireCapability(role, capability);
    const { id, appId } = await db.transaction().execute(work);
    await ctx.cache.invalidateTag(appTag(appId));
    runner.kick();
    const [entry] = await toAdminEntries(db, [await findEntryInWorkspace(db, wsId, id)]);
    return entry!;
  };

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

  app.post(
    "/workspaces/:wsId/changelog",
    {
      schema: {
        tags,
        summary: "Create a release (draft; `publishNow` or `scheduledAt` need changelog.publish)",
        params: WorkspaceParams,
        body: CreateChangelogBodySchema,
        response: { 201: AdminChangelogEntrySchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const schedules = body.publishNow !== true && body.scheduledAt !== undefined && body.scheduledAt !== null;
      const capabilities: Capability[] = body.publishNow === true || schedules ? ["content.manage", "changelog.publish"] : ["content.manage"];
      const entry = await command(request, request.params.wsId, capabilities, async (trx) => {
        await findAppInWorkspace(trx, request.params.wsId, body.appId);
        const { versionId, versionLabel } = await entryVersion(trx, body.appId, body);
        const emailSegmentId = body.emailSegmentId == null ? null : (await findSegmentInApp(trx, body.appId, body.emailSegmentId)).id;
        const row = await insertEntry(trx, ctx.clock, {
          appId: body.appId,
          title: body.title.trim(),
          body: body.body,
          versionLabel,
          versionId,
          scheduledAt: schedules ? new Date(body.scheduledAt!).toISOString() : null,
          linkedRequestIds: body.linkedRequestIds ?? [],
          emailSegmentId,
        });
        if (body.publishNow === true) await publishEntry(trx, ctx, row);
        return row;
      });
      return reply.code(201).send(entry);
    },
  );

  app.put(
    "/workspaces/:wsId/changelog/:id",
    {
      schema: {
        tags,
        summary: "Edit a release; `scheduledAt` schedules (changelog.publish), null unschedules",
        params: EntryParams,
        body: UpdateChangelogBodySchema,
        response: { 200: AdminChangelogEntrySchema },
      },
    },
    async (request) => {
      const body = request.body;
      const schedules = body.scheduledAt !== undefined && body.scheduledAt !== null;
      const capabilities: Capability[] = schedules ? ["content.manage", "changelog.publish"] : ["content.manage"];
      return command(request, request.params.wsId, capabilities, async (trx) => {
        const current = await findEntryInWorkspace(trx, request.params.wsId, request.params.id);
        const { versionId, versionLabel } = await entryVersion(trx, current.appId, body, current);
        let status = current.status;
        let scheduledAt = current.scheduledAt;
        if (body.scheduledAt !== undefined && current.status !== "published") {
          scheduledAt = body.scheduledAt === null ? null : new Date(body.scheduledAt).toISOString();
          status = scheduledAt === null ? "draft" : "scheduled";
        }
        if (body.emailSegmentId != null) await findSegmentInApp(trx, current.appId, body.emailSegmentId);
        await trx
          .updateTable("changelogEntries")
          .set({
            ...(body.title === undefined ? {} : { title: body.title.trim() }),
            ...(body.body === undefined ? {} : { body: body.body }),
            versionId,
            versionLabel,
            status,
            scheduledAt,
            ...(body.emailSegmentId === undefined ? {} : { emailSegmentId: body.emailSegmentId }),
            updatedAt: isoNow(ctx.clock),
          })
          .where("id", "=", current.id)
          .execute();
        if (body.linkedRequestIds !== undefined) await setLinks(trx, current.id, current.appId, body.linkedRequestIds);
        return current;
      });
    },
  );

  app.delete(
    "/workspaces/:wsId/changelog/:id",
    { schema: { tags, summary: "Delete a release", params: EntryParams, response: { 200: Type.Object({ success: Type.Boolean() }) } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "content.manage");
      const entry = await findEntryInWorkspace(db, request.params.wsId, request.params.id);
      await db.transaction().execute(async (trx) => {
        // Mail not yet sent for it is dropped; sent and failed jobs stay as the record.
        await trx.deleteFrom("jobs").where("refId", "=", entry.id).where("status", "=", "pending").execute();
        await trx.deleteFrom("changelogEntries").where("id", "=", entry.id).execute();
      });
      await ctx.cache.invalidateTag(appTag(entry.appId));
      return { success: true };
    },
  );

  app.post(
    "/workspaces/:wsId/changelog/:id/publish",
    { schema: { tags, summary: "Publish now; the first publication mails every confirmed subscriber", params: EntryParams, response: { 200: AdminChangelogEntrySchema } } },
    (request) =>
      command(request, request.params.wsId, ["changelog.publish"], async (trx) => {
        const current = await findEntryInWorkspace(trx, request.params.wsId, request.params.id);
        if (current.status !== "published") await publishEntry(trx, ctx, current);
        return current;
      }),
  );

  app.post(
    "/workspaces/:wsId/changelog/:id/unpublish",
    { schema: { tags, summary: "Back to draft (publishing again mails nobody twice)", params: EntryParams, response: { 200: AdminChangelogEntrySchema } } },
    (request) =>
      command(request, request.params.wsId, ["changelog.publish"], async (trx) => {
        const current = await findEntryInWorkspace(trx, request.params.wsId, request.params.id);
        await trx
          .updateTable("changelogEntries")
          .set({ status: "draft", publishedAt: null, scheduledAt: null, updatedAt: isoNow(ctx.clock) })
          .where("id", "=", current.id)
          .execute();
        return current;
      }),
  );
}
