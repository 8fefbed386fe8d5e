import type { GithubBrokenReason } from "@tidings/protocol";
import { isoNow } from "../../clock.js";
import type { Context } from "../../context.js";
import { enqueueJobs } from "../../jobs/queue.js";
import { composeMail, oneLine, publicBase } from "../../mail/compose.js";

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
    const connection = await trx
      .selectFrom("githubConnections as g")
      .innerJoin("apps as a", "a.id", "g.appId")
      .select(["g.owner", "g.repo", "a.id as appId", "a.name as appName", "a.workspaceId"])
      .where("g.id", "=", connectionId)
      .executeTakeFirstOrThrow();
    const owners = await trx
      .selectFrom("memberships as m")
      .innerJoin("consoleUsers as u", "u.id", "m.userId")
      .select(["u.id", "u.email"])
      .where("m.workspaceId", "=", connection.workspaceId)
      .where("m.role", "=", "owner")
      .orderBy("u.id")
      .execute();
    const base = publicBase(ctx.config);
    const host = new URL(base).hostname;
    const repository = `${connection.owner}/${connection.repo}`;
    await enqueueJobs(
      trx,
      ctx.clock,
      owners.map((owner) => ({
        kind: "mail",
        refId: connectionId,
        dedupeKey: `github-broken:${connectionId}:${now}:${owner.id}`,
        payload: {
          subscriptionId: null,
          requireStatus: null,
          message: composeMail({
            to: owner.email,
            subject: `${oneLine(connection.appName)}: the GitHub connection stopped`,
            paragraphs: [
              `Tidings stopped syncing ${oneLine(connection.appName)} with the GitHub repository ${repository}: ${WHY[reason]}.`,
              "Issues no longer move requests and their demand is no longer written to them. Save a new fine-grained token (Issues: read and write, Metadata: read) in the app's GitHub settings to resume.",
            ],
            action: { label: "Open the app's settings", url: `${base}/admin/w/${connection.workspaceId}/a/${connection.appId}` },
            messageId: `github-broken.${connectionId}.${Date.parse(now)}.${owner.id}@${host}`,
          }),
        },
      })),
    );
    return true;
  });
}
