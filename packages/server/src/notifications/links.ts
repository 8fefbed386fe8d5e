import { UNSUBSCRIBE_TTL_MS, type MailApp } from "../changelog/subscription-mail.js";
import type { Context } from "../context.js";
import { publicBase } from "../mail/compose.js";
import { mailLinkSecret, readLinkToken, signLinkToken } from "../mail/link-tokens.js";

/**
 * The preference page of the address behind a subscription, as mailed in every digest. Like an
 * unsubscribe link, an authentic one keeps working after its nominal expiry: it only ever
 * changes what its own address receives.
 *
 * @example
 * ```ts
 * await preferencesUrl(ctx, app, "esub_…"); // "https://…/api/v1/public/apps/app_…/notifications?token=…"
 * ```
 */
export async function preferencesUrl(ctx: Context, app: MailApp, subscriptionId: string): Promise<string> {
  const token = signLinkToken(await mailLinkSecret(ctx), "preferences", { s: subscriptionId, exp: ctx.clock.now().getTime() + UNSUBSCRIBE_TTL_MS });
  return `${publicBase(ctx.config)}/api/v1/public/apps/${encodeURIComponent(app.appKey)}/notifications?token=${token}`;
}

/** The subscription id of an authentic preference-page token; undefined for anything else. */
export async function readPreferencesToken(ctx: Context, token: string): Promise<string | undefined> {
  return readLinkToken(await mailLinkSecret(ctx), "preferences", token)?.s;
}
