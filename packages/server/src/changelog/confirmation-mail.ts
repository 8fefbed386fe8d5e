import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { SubscriptionKind } from "../db/schema.js";
import type { NewJob } from "../jobs/queue.js";
import { composeMail, oneLine } from "../mail/compose.js";
import { mailLinkSecret, signLinkToken } from "../mail/link-tokens.js";
import { appPath, mailJob, messageHost, unsubscribeUrl, type MailApp } from "./subscription-mail.js";

/** How long a confirmation link works. */
export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;
/** A subscription as its confirmation mail needs it. */
export type SubRow = { id: string; email: string; kind: SubscriptionKind; featureRequestId: string; confirmNonce: string | null };

/** The `mail` job of a confirmation mail: its signed single-use link, and how to leave. */
export async function confirmationJob(ctx: Context, app: MailApp, sub: SubRow, requestTitle: string | null): Promise<NewJob> {
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
