import type { Kysely } from "kysely";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import type { SubscriptionStatus } from "../db/schema.js";
import type { NewJob } from "../jobs/queue.js";
import { publicBase } from "../mail/compose.js";
import { mailLinkSecret, signLinkToken } from "../mail/link-tokens.js";
import type { Mailer, MailMessage } from "../mail/mailer.js";

/** The nominal life of an unsubscribe link; an authentic one is honoured after it anyway. */
export const UNSUBSCRIBE_TTL_MS = 90 * 24 * 60 * 60_000;

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

/** An address under the app's public API, as mailed links name it. */
export function appPath(ctx: Context, app: MailApp, rest: string): string {
  return `${publicBase(ctx.config)}/api/v1/public/apps/${encodeURIComponent(app.appKey)}/${rest}`;
}

/** The host part of the Message-IDs of mails. */
export function messageHost(ctx: Context): string {
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

/** The app fields mail needs, by id. */
export async function mailAppOf(db: Kysely<Database>, appId: string): Promise<MailApp> {
  return db.selectFrom("apps").select(["id", "appKey", "name"]).where("id", "=", appId).executeTakeFirstOrThrow();
}

/**
 * The `mail` job handler: sends unless the subscription left the state the mail was for
 * (unsubscribed before its turn came, or already confirmed by an earlier link).
 */
export function mailJobHandler(ctx: Context, mailer: Mailer) {
  return async (raw: unknown): Promise<void> => {
    const payload = raw as MailJobPayload;
    if (payload.subscriptionId !== null && payload.requireStatus !== null) {
      const sub = await ctx.db.kysely.selectFrom("emailSubscriptions").select("status").where("id", "=", payload.subscriptionId).executeTakeFirst();
      if (sub?.status !== payload.requireStatus) return;
    }
    await mailer.send(payload.message);
  };
}
