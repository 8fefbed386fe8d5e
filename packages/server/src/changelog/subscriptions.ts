import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database, SubscriptionKind } from "../db/schema.js";
import { newId } from "../ids.js";
import { enqueueJobs } from "../jobs/queue.js";
import { mailLinkSecret, readLinkToken } from "../mail/link-tokens.js";
import { queueWebhookEvent } from "../webhooks/events.js";
import { confirmationJob } from "./confirmation-mail.js";
import type { MailApp } from "./subscription-mail.js";

/** A confirmation mail is not sent again for the same address within this long. */
export const CONFIRM_COOLDOWN_MS = 15 * 60_000;
/** Work a caller adds to the transaction of a write (its record of the write, such as an idempotency key). */
export type Alongside = (trx: Kysely<Database>) => Promise<void>;

/** The subscription of `email` to `kind` for one request of an app (the table's unique key), if there is one. */
export function requestSubscriptionOf(trx: Kysely<Database>, key: { appId: string; kind: SubscriptionKind; featureRequestId: string; email: string }) {
  return trx
    .selectFrom("emailSubscriptions")
    .selectAll()
    .where("appId", "=", key.appId)
    .where("kind", "=", key.kind)
    .where("featureRequestId", "=", key.featureRequestId)
    .where("email", "=", key.email)
    .executeTakeFirst();
}

/**
 * Records a double-opt-in request and queues its confirmation mail, in the caller's
 * transaction. Confirmed addresses get nothing; a pending one is mailed again only after the
 * {@link CONFIRM_COOLDOWN_MS}; an unsubscribed one starts over. Answers whether a mail was queued.
 */
export async function requestSubscription(
  trx: Kysely<Database>,
  ctx: Context,
  app: MailApp,
  input: { kind: SubscriptionKind; featureRequestId: string; email: string; tokenHash: string | null; requestTitle: string | null },
): Promise<boolean> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const find = () => requestSubscriptionOf(trx, { appId: app.id, kind: input.kind, featureRequestId: input.featureRequestId, email: input.email });
  let sub = await find();
  if (sub === undefined) {
    await trx
      .insertInto("emailSubscriptions")
      .values({
        id: newId("esub", now),
        appId: app.id,
        kind: input.kind,
        featureRequestId: input.featureRequestId,
        email: input.email,
        status: "pending",
        subscriberTokenHash: input.tokenHash,
        confirmNonce: randomBytes(12).toString("base64url"),
        confirmSentAt: null,
        confirmedAt: null,
        unsubscribedAt: null,
        notifiedAt: null,
        createdAt: nowIso,
        updatedAt: nowIso,
      })
      .onConflict((oc) => oc.columns(["appId", "kind", "featureRequestId", "email"]).doNothing())
      .execute();
    sub = await find();
    if (sub === undefined) return false;
  }
  if (sub.status === "confirmed") return false;
  if (sub.confirmSentAt !== null && now.getTime() - Date.parse(sub.confirmSentAt) < CONFIRM_COOLDOWN_MS) return false;
  const nonce = sub.status === "unsubscribed" || sub.confirmNonce === null ? randomBytes(12).toString("base64url") : sub.confirmNonce;
  const claimed = await trx
    .updateTable("emailSubscriptions")
    .set({
      status: "pending",
      confirmNonce: nonce,
      confirmSentAt: nowIso,
      updatedAt: nowIso,
      ...(sub.subscriberTokenHash === null && input.tokenHash !== null ? { subscriberTokenHash: input.tokenHash } : {}),
    })
    .where("id", "=", sub.id)
    .where((eb) => (sub.confirmSentAt === null ? eb("confirmSentAt", "is", null) : eb("confirmSentAt", "=", sub.confirmSentAt)))
    .executeTakeFirst();
  // A concurrent request for the same address won the race and queued the mail.
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  await enqueueJobs(trx, ctx.clock, [await confirmationJob(ctx, app, { ...sub, confirmNonce: nonce }, input.requestTitle)]);
  return true;
}

/**
 * Confirms with a signed, single-use, unexpired token of `kind` for this app. Answers false for
 * anything else (tampered, expired, replayed, another app's). `alongside` runs in the
 * transaction of the confirmation, when there is one.
 */
export async function confirmSubscription(ctx: Context, appId: string, kind: SubscriptionKind, token: string, alongside?: Alongside): Promise<boolean> {
  const payload = readLinkToken(await mailLinkSecret(ctx), "confirm", token);
  if (payload === undefined || payload.n === undefined || payload.n === "" || payload.exp <= ctx.clock.now().getTime()) return false;
  const now = isoNow(ctx.clock);
  const nonce = payload.n;
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("emailSubscriptions")
      .set({ status: "confirmed", confirmNonce: null, confirmedAt: now, unsubscribedAt: null, updatedAt: now })
      .where("id", "=", payload.s)
      .where("appId", "=", appId)
      .where("kind", "=", kind)
      .where("status", "=", "pending")
      .where("confirmNonce", "=", nonce)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await queueWebhookEvent(trx, ctx.clock, appId, "subscriber.confirmed", async () => {
      const sub = await trx.selectFrom("emailSubscriptions").select(["id", "kind", "email", "featureRequestId", "confirmedAt"]).where("id", "=", payload.s).executeTakeFirstOrThrow();
      return { subscriber: { id: sub.id, kind: sub.kind, email: sub.email, requestId: sub.featureRequestId === "" ? null : sub.featureRequestId, confirmedAt: sub.confirmedAt } };
    });
    await alongside?.(trx);
    return true;
  });
}
