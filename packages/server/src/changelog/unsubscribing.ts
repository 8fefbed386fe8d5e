import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { enqueueJobs } from "../jobs/queue.js";
import { composeMail, oneLine } from "../mail/compose.js";
import { mailLinkSecret, readLinkToken } from "../mail/link-tokens.js";
import { mailJob, messageHost, unsubscribeUrl, type MailApp } from "./subscription-mail.js";
import { CONFIRM_COOLDOWN_MS, type Alongside } from "./subscriptions.js";

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
