import type { Context } from "../../context.js";
import type { JobHandler } from "../../jobs/runner.js";
import { withoutDemandBlock } from "../demand-block.js";
import { holdDemandWrite } from "../demand-schedule.js";
import type { TrackerAdapter } from "./adapter.js";
import { settleFailure } from "./call-failures.js";
import { pauseTrackerConnection } from "./connections.js";

/**
 * The unlink job handler of every tracker: takes the demand block out of an issue that was
 * unlinked, leaving the rest of its body. A rate limit reschedules it; a refused credential
 * breaks the connection; an issue or target that is gone has nothing left to clean.
 */
export function trackerUnlinkJobHandler(ctx: Context, adapter: TrackerAdapter): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown): Promise<void> => {
    // Jobs queued before 0036 name a GitHub issue by its number.
    const { connectionId, issueId: id, issueNumber } = raw as { connectionId: string; issueId?: string; issueNumber?: number };
    const issueId = id ?? String(issueNumber);
    const connection = await db.selectFrom("trackerConnections").selectAll().where("id", "=", connectionId).executeTakeFirst();
    if (connection === undefined || connection.status !== "active") return;
    // Linked again meanwhile: the block is wanted.
    const relinked = await db.selectFrom("trackerIssueLinks").select("id").where("connectionId", "=", connectionId).where("issueId", "=", issueId).executeTakeFirst();
    if (relinked !== undefined) return;
    holdDemandWrite(connection.pausedUntil, null, ctx.clock.now().getTime(), adapter.service);
    const api = adapter.api(ctx, connection, (until) => pauseTrackerConnection(db, connectionId, until));
    try {
      const issue = await api.getIssue(issueId);
      const body = withoutDemandBlock(issue.body);
      if (body !== issue.body) await api.setIssueBody(issueId, body);
    } catch (error) {
      const failure = adapter.classify(error, ctx.clock.now().getTime());
      if ((await settleFailure(ctx, adapter, connectionId, failure)) || failure.kind === "not_found") return;
      throw error;
    }
  };
}
