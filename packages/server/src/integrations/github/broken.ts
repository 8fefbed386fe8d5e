import type { GithubBrokenReason } from "@tidings/protocol";
import { isoNow } from "../../clock.js";
import type { Context } from "../../context.js";
import { mailOwnersConnectionBroken } from "../broken-mail.js";

const WHY: Record<GithubBrokenReason, string> = {
  unauthorized: "GitHub refused its token (revoked, expired or replaced)",
  forbidden: "GitHub refused the calls for lack of permission (the token needs Issues: read and write on the repository)",
  repository_not_found: "the repository is gone, renamed, or no longer reachable with its token",
};

/**
 * Marks a connection broken and mails the workspace's owners, once: the conditional update lets
 * one caller (of any instance) do it. Nothing calls GitHub for the connection until a new token
 * is saved. Answers whether this call broke it.
 *
 * @example
 * ```ts
 * await markBroken(ctx, connection.id, "unauthorized");
 * ```
 */
export async function markBroken(ctx: Context, connectionId: string, reason: GithubBrokenReason): Promise<boolean> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const now = isoNow(ctx.clock);
    const result = await trx
      .updateTable("githubConnections")
      .set({ status: "broken", brokenReason: reason, brokenAt: now, updatedAt: now })
      .where("id", "=", connectionId)
      .where("status", "=", "active")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    const connection = await trx.selectFrom("githubConnections").select(["owner", "repo", "appId"]).where("id", "=", connectionId).executeTakeFirstOrThrow();
    await mailOwnersConnectionBroken(trx, ctx, {
      service: "GitHub",
      connectionId,
      appId: connection.appId,
      target: `the GitHub repository ${connection.owner}/${connection.repo}`,
      why: WHY[reason],
      fix: "Issues no longer move requests and their demand is no longer written to them. Save a new fine-grained token (Issues: read and write, Metadata: read) in the app's GitHub settings to resume.",
      brokenAt: now,
    });
    return true;
  });
}
