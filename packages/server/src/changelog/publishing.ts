import type { Kysely } from "kysely";
import { isoNow } from "../clock.js";
import { appTag, type Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { enqueueJobs } from "../jobs/queue.js";
import { queueWebhookEvent } from "../webhooks/events.js";
import { queueRequestNotices } from "../feature-requests/notices.js";
import { composeMail, oneLine, publicBase } from "../mail/compose.js";
import { ruleCondition } from "../segments/rule.js";
import { ruleOf } from "../segments/segments.js";
import type { EntryRow } from "./entries.js";
import { renderMarkdown } from "./markdown.js";
import { mailAppOf, mailJob, messageHost, unsubscribeUrl } from "./subscription-mail.js";

/**
 * Publishes an entry in the caller's transaction. The first publication also queues one mail per
 * confirmed subscriber (jobs keyed by entry and subscriber, so a restart or a re-publish never
 * mails anyone twice), queues its `changelog.published` webhooks and stamps `notifiedAt`.
 */
export async function publishEntry(trx: Kysely<Database>, ctx: Context, entry: EntryRow): Promise<void> {
  const now = isoNow(ctx.clock);
  const notify = entry.notifiedAt === null;
  await trx
    .updateTable("changelogEntries")
    .set({ status: "published", publishedAt: now, scheduledAt: null, updatedAt: now, ...(notify ? { notifiedAt: now } : {}) })
    .where("id", "=", entry.id)
    .execute();
  if (!notify) return;
  await queueWebhookEvent(trx, ctx.clock, entry.appId, "changelog.published", async () => {
    const linked = await trx
      .selectFrom("changelogEntryRequests as l")
      .innerJoin("featureRequests as fr", "fr.id", "l.featureRequestId")
      .select(["fr.id", "fr.title"])
      .where("l.entryId", "=", entry.id)
      .orderBy("l.position")
      .execute();
    return { entry: { id: entry.id, title: entry.title, versionLabel: entry.versionLabel, body: entry.body, publishedAt: now, linkedRequests: linked } };
  });
  // Followers of the requests the release ships hear about it with its notes, in their digest.
  const linked = await trx.selectFrom("changelogEntryRequests").select("featureRequestId").where("entryId", "=", entry.id).execute();
  for (const { featureRequestId } of linked) {
    await queueRequestNotices(trx, ctx.clock, { appId: entry.appId, featureRequestId, kind: "shipped", key: `release:${entry.id}`, data: { entryId: entry.id } });
  }
  const app = await mailAppOf(trx, entry.appId);
  const subscribers = await releaseAudience(trx, entry);
  const html = renderMarkdown(entry.body);
  const feed = `${publicBase(ctx.config)}/api/v1/public/apps/${encodeURIComponent(app.appKey)}/changelog`;
  const jobs = [];
  for (const sub of subscribers) {
    const title = oneLine(entry.versionLabel === null ? entry.title : `${entry.title} (${entry.versionLabel})`);
    const message = composeMail({
      to: sub.email,
      subject: `${oneLine(app.name)}: ${title}`,
      paragraphs: [title],
      htmlBlock: html,
      textBlock: entry.body,
      action: { label: "All release notes", url: feed },
      unsubscribeUrl: await unsubscribeUrl(ctx, app, sub.id),
      messageId: `release.${entry.id}.${sub.id}@${messageHost(ctx)}`,
    });
    jobs.push(mailJob(`release:${entry.id}:${sub.id}`, entry.id, { subscriptionId: sub.id, requireStatus: "confirmed", message }));
  }
  await enqueueJobs(trx, ctx.clock, jobs);
}

/**
 * The confirmed subscribers a release is mailed to: every one, or with an `emailSegmentId` only
 * those whose address came from an end user (`subscriberTokenHash`) the segment holds now.
 */
async function releaseAudience(trx: Kysely<Database>, entry: EntryRow): Promise<Array<{ id: string; email: string }>> {
  let query = trx
    .selectFrom("emailSubscriptions as s")
    .select(["s.id", "s.email"])
    .where("s.appId", "=", entry.appId)
    .where("s.kind", "=", "changelog")
    .where("s.status", "=", "confirmed");
  if (entry.emailSegmentId !== null) {
    const segment = await trx.selectFrom("segments").select("rule").where("id", "=", entry.emailSegmentId).where("appId", "=", entry.appId).executeTakeFirst();
    // A segment cannot be deleted while an unmailed release names it; were it gone, mail no one rather than everyone.
    if (segment === undefined) return [];
    const members = trx.selectFrom("endUsers as u").select("u.tokenHash").where(ruleCondition(trx, entry.appId, ruleOf(segment)));
    query = query.where("s.subscriberTokenHash", "in", members);
  }
  return query.orderBy("s.id").execute();
}

/** Tick step: publishes scheduled entries whose time has come. */
export async function publishDueEntries(ctx: Context): Promise<void> {
  const db = ctx.db.kysely;
  const due = await db
    .selectFrom("changelogEntries")
    .selectAll()
    .where("status", "=", "scheduled")
    .where("scheduledAt", "<=", isoNow(ctx.clock))
    .orderBy("scheduledAt")
    .limit(100)
    .execute();
  for (const entry of due) {
    const published = await db.transaction().execute(async (trx) => {
      // Claim the entry first: the conditional update waits for another instance publishing it
      // at the same moment and then finds it no longer scheduled, so it is published once.
      const claimed = await trx
        .updateTable("changelogEntries")
        .set({ updatedAt: isoNow(ctx.clock) })
        .where("id", "=", entry.id)
        .where("status", "=", "scheduled")
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return false;
      // Re-read inside the transaction: a console edit may have unscheduled it meanwhile.
      const current = await trx.selectFrom("changelogEntries").selectAll().where("id", "=", entry.id).where("status", "=", "scheduled").executeTakeFirst();
      if (current === undefined) return false;
      await publishEntry(trx, ctx, current);
      return true;
    });
    if (published) await ctx.cache.invalidateTag(appTag(entry.appId));
  }
}
