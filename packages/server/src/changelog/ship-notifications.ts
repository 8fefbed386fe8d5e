import type { Kysely } from "kysely";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { enqueueJobs } from "../jobs/queue.js";
import { composeMail, oneLine, publicBase } from "../mail/compose.js";
import { normaliseEmail } from "../mail/email-address.js";
import { mailAppOf, mailJob, messageHost, unsubscribeUrl, type MailApp } from "./subscription-mail.js";
import { requestSubscription, requestSubscriptionOf } from "./subscriptions.js";

/** Queued votes, and queued requests, handled per tick; the rest wait for the next one. */
const QUEUE_BATCH = 200;
/** "Shipped" mails queued per transaction; a request with more subscribers due stays queued. */
const MAIL_BATCH = 500;

/**
 * Tick step for ship notifications: turns new `shipNotifyEmail` votes into pending
 * subscriptions with a confirmation mail, then queues one "shipped" mail per confirmed
 * subscription whose request shipped (a `shipped` event, or linked in a published release).
 * `notifiedAt` is stamped with the job in one transaction, so each voter is mailed once.
 *
 * Both halves read queues that triggers fill, so each tick costs what is new, not every vote or
 * subscriber: votes with an address (`shipNotifyQueue`, migration 0044) and requests whose
 * subscribers may have become due (`shipDueQueue`, migration 0045).
 */
export async function shipNotificationStep(ctx: Context): Promise<void> {
  await askQueuedVoters(ctx);
  await mailDueSubscribers(ctx);
}

/**
 * A queued vote leaves the queue in the transaction that requests its subscription, or at once
 * when there is nothing to ask: the vote was removed, its address is not one we mail, or the
 * address already has a ship subscription for the request (pending, confirmed or unsubscribed: a
 * new vote does not undo an unsubscribe).
 */
async function askQueuedVoters(ctx: Context): Promise<void> {
  const db = ctx.db.kysely;
  const queued = await db.selectFrom("shipNotifyQueue").select(["featureRequestId", "endUserId"]).limit(QUEUE_BATCH).execute();
  for (const key of queued) {
    await db.transaction().execute(async (trx) => {
      // Read in the transaction that dequeues it: the vote as it is now, not as it was queued.
      const vote = await trx
        .selectFrom("featureRequestVotes as v")
        .innerJoin("featureRequests as fr", "fr.id", "v.featureRequestId")
        .innerJoin("endUsers as eu", "eu.id", "v.endUserId")
        .select(["v.shipNotifyEmail", "fr.appId", "fr.title", "eu.tokenHash"])
        .where("v.featureRequestId", "=", key.featureRequestId)
        .where("v.endUserId", "=", key.endUserId)
        .executeTakeFirst();
      const email = vote === undefined || vote.shipNotifyEmail === null ? undefined : normaliseEmail(vote.shipNotifyEmail);
      if (vote !== undefined && email !== undefined) {
        const known = await requestSubscriptionOf(trx, { appId: vote.appId, kind: "ship", featureRequestId: key.featureRequestId, email });
        if (known === undefined) {
          await requestSubscription(trx, ctx, await mailAppOf(trx, vote.appId), {
            kind: "ship",
            featureRequestId: key.featureRequestId,
            email,
            tokenHash: vote.tokenHash,
            requestTitle: vote.title,
          });
        }
      }
      await trx.deleteFrom("shipNotifyQueue").where("featureRequestId", "=", key.featureRequestId).where("endUserId", "=", key.endUserId).execute();
    });
  }
}

/**
 * Each queued request is dequeued first, in the transaction that queues its mails: a subscriber
 * confirmed meanwhile queues the request again once that transaction is over (on PostgreSQL its
 * insert waits for the dequeue to commit), and a crash before the commit leaves it queued.
 */
async function mailDueSubscribers(ctx: Context): Promise<void> {
  const db = ctx.db.kysely;
  const queued = await db.selectFrom("shipDueQueue").select("featureRequestId").limit(QUEUE_BATCH).execute();
  for (const { featureRequestId } of queued) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("shipDueQueue").where("featureRequestId", "=", featureRequestId).execute();
      const due = await dueSubscribers(trx, featureRequestId, MAIL_BATCH + 1);
      if (due.length === 0) return;
      // One request, so one app for every subscriber of the batch.
      const app = await mailAppOf(trx, due[0]!.appId);
      for (const sub of due.slice(0, MAIL_BATCH)) await queueShippedMail(trx, ctx, app, sub);
      if (due.length > MAIL_BATCH) await trx.insertInto("shipDueQueue").values({ featureRequestId }).onConflict((oc) => oc.column("featureRequestId").doNothing()).execute();
    });
  }
}

/** The request's confirmed ship subscribers not mailed yet, when it has shipped (a `shipped` event, or linked in a published release). */
function dueSubscribers(trx: Kysely<Database>, featureRequestId: string, limit: number) {
  return trx
    .selectFrom("featureRequests as fr")
    .innerJoin("emailSubscriptions as s", (join) => join.onRef("s.appId", "=", "fr.appId").onRef("s.featureRequestId", "=", "fr.id"))
    .select(["s.id", "s.email", "s.appId", "fr.title", "fr.id as featureRequestId"])
    .where("fr.id", "=", featureRequestId)
    .where("s.kind", "=", "ship")
    .where("s.status", "=", "confirmed")
    .where("s.notifiedAt", "is", null)
    // A follower of the request hears that it shipped in their digest, with the release notes.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("emailSubscriptions as f")
            .select("f.id")
            .where("f.kind", "=", "request")
            .where("f.status", "=", "confirmed")
            .whereRef("f.appId", "=", "s.appId")
            .whereRef("f.featureRequestId", "=", "s.featureRequestId")
            .whereRef("f.email", "=", "s.email"),
        ),
      ),
    )
    .where(({ or, exists, selectFrom }) =>
      or([
        exists(selectFrom("featureRequestEvents as ev").select("ev.id").whereRef("ev.featureRequestId", "=", "fr.id").where("ev.type", "=", "shipped")),
        exists(
          selectFrom("changelogEntryRequests as l")
            .innerJoin("changelogEntries as e", "e.id", "l.entryId")
            .select("l.entryId")
            .whereRef("l.featureRequestId", "=", "fr.id")
            .where("e.status", "=", "published"),
        ),
      ]),
    )
    .orderBy("s.id")
    .limit(limit)
    .execute();
}

/** Stamps the subscription and queues its "shipped" mail, unless it was stamped meanwhile. */
async function queueShippedMail(trx: Kysely<Database>, ctx: Context, app: MailApp, sub: { id: string; email: string; title: string; featureRequestId: string }): Promise<void> {
  const message = composeMail({
    to: sub.email,
    subject: `Shipped in ${oneLine(app.name)}: ${oneLine(sub.title)}`,
    paragraphs: [`"${oneLine(sub.title)}", which you voted for, has shipped in ${oneLine(app.name)}.`],
    action: {
      label: "Release notes",
      url: `${publicBase(ctx.config)}/api/v1/public/apps/${encodeURIComponent(app.appKey)}/changelog`,
    },
    unsubscribeUrl: await unsubscribeUrl(ctx, app, sub.id),
    messageId: `shipped.${sub.id}@${messageHost(ctx)}`,
  });
  const stamped = await trx
    .updateTable("emailSubscriptions")
    .set({ notifiedAt: isoNow(ctx.clock), updatedAt: isoNow(ctx.clock) })
    .where("id", "=", sub.id)
    .where("notifiedAt", "is", null)
    .executeTakeFirst();
  if (Number(stamped.numUpdatedRows) !== 1) return;
  await enqueueJobs(trx, ctx.clock, [mailJob(`shipped:${sub.id}`, sub.featureRequestId, { subscriptionId: sub.id, requireStatus: "confirmed", message })]);
}
