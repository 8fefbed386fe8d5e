import { isoNow } from "../../clock.js";
import type { Context } from "../../context.js";
import { mailOwnersConnectionBroken } from "../broken-mail.js";
import type { TrackerAdapter } from "./adapter.js";

/**
 * Marks a connection broken and mails the workspace's owners, once: the conditional update lets
 * one caller (of any instance) do it. Nothing calls the tracker for the connection until new
 * credentials are saved. Answers whether this call broke it.
 *
 * @example
 * ```ts
 * await markBroken(ctx, githubAdapter, connection.id, "unauthorized");
 * ```
 */
export async function markBroken(ctx: Context, adapter: TrackerAdapter, connectionId: string, reason: string): Promise<boolean> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const now = isoNow(ctx.clock);
    const result = await trx
      .updateTable("trackerConnections")
      .set({ status: "broken", brokenReason: reason, brokenAt: now, updatedAt: now })
      .where("id", "=", connectionId)
      .where("status", "=", "active")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    const connection = await trx.selectFrom("trackerConnections").selectAll().where("id", "=", connectionId).executeTakeFirstOrThrow();
    await mailOwnersConnectionBroken(trx, ctx, { service: adapter.service, connectionId, appId: connection.appId, ...adapter.brokenNotice(connection, reason), brokenAt: now });
    return true;
  });
}
