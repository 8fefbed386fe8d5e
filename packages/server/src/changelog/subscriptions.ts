import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database, SubscriptionKind, SubscriptionStatus } from "../db/schema.js";
import { newId } from "../ids.js";
import { enqueueJobs, type NewJob } from "../jobs/queue.js";
import { composeMail, oneLine, publicBase } from "../mail/compose.js";
import { mailLinkSecret, readLinkToken, signLinkToken } from "../mail/link-tokens.js";
import type { MailMessage } from "../mail/mailer.js";
import { queueWebhookEvent } from "../webhooks/events.js";

/** A confirmation mail is not sent again for the same address within this long. */
export const CONFIRM_COOLDOWN_MS = 15 * 60_000;
/** How long a confirmation link works. */
export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;
/** The nominal life of an unsubscribe link; an authentic one is honoured after it anyway. */
export const UNSUBSCRIBE_TTL_MS = 90 * 24 * 60 * 60_000;

/** Work a caller adds to the transaction of a write (its record of the write, such as an idempotency key). */
export type Alongside = (trx: Kysely<Database>) => Promise<void>;

/** The app fields mail needs. */
export interface MailApp {
  id: string;
  appKey: string;
  name: string;
}

/** What the `mail` job carries: the rendered message and the subscription state it still needs. */
export interface MailJobPayload {
  subscriptionId: string | null;
  requireStatus: SubscriptionStatus | null;
  message: MailMessage;
}

type SubRow = { id: string; email: string; kind: SubscriptionKind; featureRequestId: string; confirmNonce: string | null };

function appPath(ctx: Context, app: MailApp, rest: string): string {
  return `${publicBase(ctx.config)}/api/v1/public/apps/${encodeURIComponent(app.appKey)}/${rest}`;
}

function messageHost(ctx: Context): string {
  return new URL(publicBase(ctx.config)).hostname || "tidings.local";
}

/** The one-click unsubscribe link of a subscription (GET shows a page; POST unsubscribes). */
export async function unsubscribeUrl(ctx: Context, app: MailApp, subscriptionId: string): Promise<string> {
  const token = signLinkToken(await mailLinkSecret(ctx), "unsubscribe", {
    s: subscriptionId,
    exp: ctx.clock.now().getTime() + UNSUBSCRIBE_TTL_MS,
  });
  return appPath(ctx, app, `changelog/unsubscribe?token=${token}`);
}

/** A `mail` job for one subscription; `key` makes it unique (a restarted blast never mails twice). */
export function mailJob(key: string, refId: string | null, payload: MailJobPayload): NewJob {
  return { kind: "mail", refId, dedupeKey: key, payload };
}

async function confirmationJob(ctx: Context, app: MailApp, sub: SubRow, requestTitle: string | null): Promise<NewJob> {
  const token = signLinkToken(await mailLinkSecret(ctx), "confirm", {
    s: sub.id,
    n: sub.confirmNonce ?? "",
    exp: ctx.clock.now().getTime() + CONFIRM_TTL_MS,
  });
  const path = { changelog: "changelog/confirm", ship: "ship-notifications/confirm", request: "request-updates/confirm" }[sub.kind];
  const appName = oneLine(app.name);
  const requestName = oneLine(requestTitle ?? "a feature request");
  const message = composeMail({
    to: sub.email,
    subject: {
      changelog: `Confirm your subscription to ${appName} updates`,
      ship: `Confirm ship notifications from ${appName}`,
      request: `Confirm updates about "${requestName}"`,
    }[sub.kind],
    paragraphs: [
      {
        changelog: `Someone asked to receive ${appName}'s release notes at this address.`,
        ship: `Someone asked to be told at this address when "${requestName}" ships in ${appName}.`,
        request: `Someone asked to be told at this address when "${requestName}" moves on ${appName}'s roadmap, when the team replies and when it ships (at most one mail an hour).`,
      }[sub.kind],
      "If it was not you, ignore this mail: nothing will be sent without your confirmation.",
    ],
    action: { label: "Confirm", url: appPath(ctx, app, `${path}?token=${token}`) },
    unsubscribeUrl: await unsubscribeUrl(ctx, app, sub.id),
    messageId: `confirm.${sub.id}.${isoNow(ctx.clock).replace(/[^0-9]/g, "")}@${messageHost(ctx)}`,
  });
  return mailJob(`confirm:${sub.id}:${isoNow(ctx.clock)}`, sub.id, { subscriptionId: sub.id, requireStatus: "pending", message });
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
  const find = () =>
    trx
      .selectFrom("emailSubscriptions")
      .selectAll()
      .where("appId", "=", app.id)
      .where("kind", "=", input.kind)
      .where("featureRequestId", "=", input.featureRequestId)
      .where("email", "=", input.email)
      .executeTakeFirst();
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

/** Unsubscribes one address from everything of an app: the changelog and its ship notifications. */
async function unsubscribeAddress(ctx: Context, appId: string, email: string, alongside?: Alongside): Promise<void> {
  const now = isoNow(ctx.clock);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable("emailSubscriptions")
      .set({ status: "unsubscribed", confirmNonce: null, unsubscribedAt: now, updatedAt: now })
      .where("appId", "=", appId)
      .where("email", "=", email)
      .where("status", "!=", "unsubscribed")
      .execute();
    await alongside?.(trx);
  });
}

/** Whether `token` is an authentic unsubscribe token of one of this app's subscriptions (nothing is written). */
export async function isUnsubscribeToken(ctx: Context, appId: string, token: string): Promise<boolean> {
  const payload = readLinkToken(await mailLinkSecret(ctx), "unsubscribe", token);
  if (payload === undefined) return false;
  return (await ctx.db.kysely.selectFrom("emailSubscriptions").select("id").where("id", "=", payload.s).where("appId", "=", appId).executeTakeFirst()) !== undefined;
}

/**
 * Honours an authentic unsubscribe token of this app, expired or not (an old mail's link must
 * still work). Answers false when the token is not authentic or names another app's subscription.
 * `alongside` runs in the transaction of the change.
 */
export async function unsubscribeWithToken(ctx: Context, appId: string, token: string, alongside?: Alongside): Promise<boolean> {
  const payload = readLinkToken(await mailLinkSecret(ctx), "unsubscribe", token);
  if (payload === undefined) return false;
  const sub = await ctx.db.kysely.selectFrom("emailSubscriptions").select(["email"]).where("id", "=", payload.s).where("appId", "=", appId).executeTakeFirst();
  if (sub === undefined) return false;
  await unsubscribeAddress(ctx, appId, sub.email, alongside);
  return true;
}

/**
 * The legacy `{email}` form: unsubscribes at once when `tokenHash` (the caller's X-User-Token) is
 * the one that subscribed the address, otherwise mails the address a one-click link (at most once
 * per cooldown). Unknown addresses do nothing; the caller answers the same either way.
 * `alongside` runs in the transaction of whatever is written.
 */
export async function unsubscribeByEmail(ctx: Context, app: MailApp, email: string, tokenHash: string | null, alongside?: Alongside): Promise<void> {
  const sub = await ctx.db.kysely
    .selectFrom("emailSubscriptions")
    .selectAll()
    .where("appId", "=", app.id)
    .where("kind", "=", "changelog")
    .where("email", "=", email)
    .executeTakeFirst();
  if (sub === undefined || sub.status === "unsubscribed") return;
  if (tokenHash !== null && sub.subscriberTokenHash === tokenHash) {
    await unsubscribeAddress(ctx, app.id, email, alongside);
    return;
  }
  const window = Math.floor(ctx.clock.now().getTime() / CONFIRM_COOLDOWN_MS);
  const url = await unsubscribeUrl(ctx, app, sub.id);
  const message = composeMail({
    to: sub.email,
    subject: `Unsubscribe from ${oneLine(app.name)} updates`,
    paragraphs: [`Someone asked to stop ${oneLine(app.name)}'s release notes at this address. Use the link below to unsubscribe; if it was not you, ignore this mail.`],
    action: { label: "Unsubscribe", url },
    unsubscribeUrl: url,
    messageId: `unsubscribe.${sub.id}.${window}@${messageHost(ctx)}`,
  });
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await enqueueJobs(trx, ctx.clock, [mailJob(`unsubscribe-link:${sub.id}:${window}`, sub.id, { subscriptionId: null, requireStatus: null, message })]);
    await alongside?.(trx);
  });
}

export { messageHost };
