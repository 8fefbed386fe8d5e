import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { enqueueJobs } from "../jobs/queue.js";
import { composeMail, oneLine, publicBase } from "../mail/compose.js";
import { normaliseEmail } from "../mail/email-address.js";
import { mailAppOf, mailJob, messageHost, unsubscribeUrl } from "./subscription-mail.js";
import { requestSubscription, requestSubscriptionOf } from "./subscriptions.js";

/** Queued votes handled per tick; the rest wait for the next one. */
const QUEUE_BATCH = 200;

/**
 * Tick step for ship notifications: turns new `shipNotifyEmail` votes into pending
 * subscriptions with a confirmation mail, then queues one "shipped" mail per confirmed
 * subscription whose request shipped (a `shipped` event, or linked in a published release).
 * `notifiedAt` is stamped with the job in one transaction, so each voter is mailed once.
 *
 * New votes come from `shipNotifyQueue`, which a trigger fills as votes with an address are
 * written (migration 0044): each tick reads what is new, not every vote. A queued vote leaves the
 * queue in the transaction that requests its subscription, or at once when there is nothing to
 * ask: the vote was removed, its address is not one we mail, or the address already has a ship
 * subscription for the request (pending, confirmed or unsubscribed: a new vote does not undo an
 * unsubscribe).
 */
export async function shipNotificationStep(ctx: Context): Promise<void> {
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

  const shipped = await db
    .selectFrom("emailSubscriptions as s")
    .innerJoin("featureRequests as fr", "fr.id", "s.featureRequestId")
    .select(["s.id", "s.email", "s.appId", "fr.title", "fr.id as featureRequestId"])
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
        exists(selectFrom("featureRequestEvents as ev").select("ev.id").whereRef("ev.featureRequestId", "=", "s.featureRequestId").where("ev.type", "=", "shipped")),
        exists(
          selectFrom("changelogEntryRequests as l")
            .innerJoin("changelogEntries as e", "e.id", "l.entryId")
            .select("l.entryId")
            .whereRef("l.featureRequestId", "=", "s.featureRequestId")
            .where("e.status", "=", "published"),
        ),
      ]),
    )
    .limit(500)
    .execute();
  for (const sub of shipped) {
    const app = await mailAppOf(db, sub.appId);
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
    await db.transaction().execute(async (trx) => {
      const stamped = await trx
        .updateTable("emailSubscriptions")
        .set({ notifiedAt: isoNow(ctx.clock), updatedAt: isoNow(ctx.clock) })
        .where("id", "=", sub.id)
        .where("notifiedAt", "is", null)
        .executeTakeFirst();
      if (Number(stamped.numUpdatedRows) !== 1) return;
      await enqueueJobs(trx, ctx.clock, [mailJob(`shipped:${sub.id}`, sub.featureRequestId, { subscriptionId: sub.id, requireStatus: "confirmed", message })]);
    });
  }
}
