import type { Kysely } from "kysely";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { enqueueJobs } from "../jobs/queue.js";
import { composeMail, oneLine, publicBase } from "../mail/compose.js";
import { workspaceOwners } from "../workspaces/members.js";

/** What the owners' mail says about a connection that stopped. */
export interface BrokenConnectionNotice {
  /** The integration's name as people know it: `GitHub`, `Linear`. */
  service: string;
  connectionId: string;
  appId: string;
  /** What the connection reached: `the GitHub repository acme/notes`. */
  target: string;
  /** Why it stopped, as a clause. */
  why: string;
  /** How to resume. */
  fix: string;
  /** When it broke (ISO), which keeps each break's mails apart. */
  brokenAt: string;
}

/**
 * Queues one mail to each owner of the app's workspace saying that an integration's connection
 * stopped, why, and how to resume, in the transaction that marked it broken.
 *
 * @example
 * ```ts
 * await mailOwnersConnectionBroken(trx, ctx, { service: "Linear", connectionId, appId, target: "the Linear team ENG", why, fix, brokenAt: now });
 * ```
 */
export async function mailOwnersConnectionBroken(trx: Kysely<Database>, ctx: Pick<Context, "clock" | "config">, notice: BrokenConnectionNotice): Promise<void> {
  const app = await trx.selectFrom("apps").select(["id", "name", "workspaceId"]).where("id", "=", notice.appId).executeTakeFirstOrThrow();
  const owners = await workspaceOwners(trx, app.workspaceId);
  const base = publicBase(ctx.config);
  const host = new URL(base).hostname;
  const kind = notice.service.toLowerCase();
  await enqueueJobs(
    trx,
    ctx.clock,
    owners.map((owner) => ({
      kind: "mail",
      refId: notice.connectionId,
      dedupeKey: `${kind}-broken:${notice.connectionId}:${notice.brokenAt}:${owner.id}`,
      payload: {
        subscriptionId: null,
        requireStatus: null,
        message: composeMail({
          to: owner.email,
          subject: `${oneLine(app.name)}: the ${notice.service} connection stopped`,
          paragraphs: [`Tidings stopped syncing ${oneLine(app.name)} with ${notice.target}: ${notice.why}.`, notice.fix],
          action: { label: "Open the app's settings", url: `${base}/admin/w/${app.workspaceId}/a/${app.id}` },
          messageId: `${kind}-broken.${notice.connectionId}.${Date.parse(notice.brokenAt)}.${owner.id}@${host}`,
        }),
      },
    })),
  );
}
