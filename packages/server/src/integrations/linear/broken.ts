import type { LinearBrokenReason } from "@tidings/protocol";
import { isoNow } from "../../clock.js";
import type { Context } from "../../context.js";
import { mailOwnersConnectionBroken } from "../broken-mail.js";

const WHY: Record<LinearBrokenReason, string> = {
  unauthorized: "Linear refused its API key (revoked, expired or replaced)",
  forbidden: "Linear refused the calls for lack of access to the team",
};

/**
 * Marks a connection broken and mails the workspace's owners, once (a conditional update lets
 * one caller do it). Nothing calls Linear for the connection until a new key is saved. Answers whether this call broke it.
 *
 * @example
 * ```ts
 * await markLinearBroken(ctx, connection.id, "unauthorized");
 * ```
 */
export async function markLinearBroken(ctx: Context, connectionId: string, reason: LinearBrokenReason): Promise<boolean> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const now = isoNow(ctx.clock);
    const result = await trx
      .updateTable("linearConnections")
      .set({ status: "broken", brokenReason: reason, brokenAt: now, updatedAt: now })
      .where("id", "=", connectionId)
      .where("status", "=", "active")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    const connection = await trx.selectFrom("linearConnections").select(["teamId", "appId"]).where("id", "=", connectionId).executeTakeFirstOrThrow();
    await mailOwnersConnectionBroken(trx, ctx, {
      service: "Linear",
      connectionId,
      appId: connection.appId,
      target: `the Linear team ${connection.teamId}`,
      why: WHY[reason],
      fix: "Issues no longer move requests and their demand is no longer written to them. Save a new API key in the app's Linear settings to resume.",
      brokenAt: now,
    });
    return true;
  });
}
