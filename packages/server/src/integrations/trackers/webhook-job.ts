import { isoNow } from "../../clock.js";
import { appTag, type Context } from "../../context.js";
import { updateRequest } from "../../feature-requests/request-edits.js";
import type { JobHandler } from "../../jobs/runner.js";
import { listColumns } from "../../roadmap/columns.js";
import type { TrackerAdapter } from "./adapter.js";

/** How the event log names a change a tracker made: `integration:github`. */
export function trackerActor(adapter: Pick<TrackerAdapter, "provider">): string {
  return `integration:${adapter.provider}`;
}

/**
 * The webhook job handler of every tracker: a change the connection maps (an issue closed as
 * completed, labelled, entering a state type…) moves its linked request to the mapped column, as
 * a team member moving it would (a `moved` event, so followers are told, webhooks sent, and
 * `shipped` recorded the first time it enters a done column). An issue linked to no request changes nothing.
 */
export function trackerWebhookJobHandler(ctx: Context, adapter: TrackerAdapter): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown): Promise<void> => {
    const { connectionId } = raw as { connectionId: string };
    const change = adapter.change(raw);
    const connection = await db.selectFrom("trackerConnections").selectAll().where("id", "=", connectionId).executeTakeFirst();
    if (connection === undefined) return;
    const link = await db
      .selectFrom("trackerIssueLinks as l")
      .innerJoin("featureRequests as fr", "fr.id", "l.featureRequestId")
      .innerJoin("apps as a", "a.id", "fr.appId")
      .select(["l.id", "l.featureRequestId", "fr.columnId", "fr.appId", "a.workspaceId"])
      .where("l.connectionId", "=", connectionId)
      .where("l.issueId", "=", change.issueId)
      .executeTakeFirst();
    if (link === undefined) return;
    const target = change.column(connection, await listColumns(db, link.appId));
    const moves = target !== undefined && target.id !== link.columnId;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("trackerIssueLinks").set({ issueState: change.issueState, updatedAt: isoNow(ctx.clock) }).where("id", "=", link.id).execute();
      if (moves) await updateRequest({ trx, clock: ctx.clock, dialect: ctx.db.dialect, workspaceId: link.workspaceId, actor: trackerActor(adapter) }, link.featureRequestId, { columnId: target.id });
    });
    if (moves) await ctx.cache.invalidateTag(appTag(link.appId));
  };
}
