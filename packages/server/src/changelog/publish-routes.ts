import { AdminChangelogEntrySchema } from "@tidings/protocol";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { findEntryInWorkspace } from "./entries.js";
import { entryCommand, EntryParams, tags } from "./entry-command.js";
import { publishEntry } from "./publishing.js";

/** Publishing a release now (the first publication mails the subscribers) and taking it back to draft. */
export function publishRoutes(app: App, ctx: Context, runner: JobRunner): void {
  app.post(
    "/workspaces/:wsId/changelog/:id/publish",
    { schema: { tags, summary: "Publish now; the first publication mails every confirmed subscriber", params: EntryParams, response: { 200: AdminChangelogEntrySchema } } },
    (request) =>
      entryCommand(ctx, runner, request, request.params.wsId, ["changelog.publish"], async (trx) => {
        const current = await findEntryInWorkspace(trx, request.params.wsId, request.params.id);
        if (current.status !== "published") await publishEntry(trx, ctx, current);
        return current;
      }),
  );

  app.post(
    "/workspaces/:wsId/changelog/:id/unpublish",
    { schema: { tags, summary: "Back to draft (publishing again mails nobody twice)", params: EntryParams, response: { 200: AdminChangelogEntrySchema } } },
    (request) =>
      entryCommand(ctx, runner, request, request.params.wsId, ["changelog.publish"], async (trx) => {
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
