import { CreateChangelogBodySchema, UpdateChangelogBodySchema, AdminChangelogEntrySchema } from "@tidings/protocol";
import Type from "typebox";
import { findAppInWorkspace } from "../apps/apps.js";
import { isoNow } from "../clock.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability, type Capability } from "../console/capabilities.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import { appTag, type Context } from "../context.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { findSegmentInApp } from "../segments/segments.js";
import { entryVersion, findEntryInWorkspace, insertEntry, setLinks } from "./entries.js";
import { entryCommand, EntryParams, tags } from "./entry-command.js";
import { publishEntry } from "./publishing.js";

/** Writing releases: creating (and publishing or scheduling at once), editing and deleting one. */
export function entryWriteRoutes(app: App, ctx: Context, runner: JobRunner): void {
  const db = ctx.db.kysely;

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
      const entry = await entryCommand(ctx, runner, request, request.params.wsId, capabilities, async (trx) => {
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
      return entryCommand(ctx, runner, request, request.params.wsId, capabilities, async (trx) => {
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
}
