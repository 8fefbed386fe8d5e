import type { Kysely } from "kysely";
import type { MailApp } from "../changelog/subscription-mail.js";
import { requestSubscription, requestSubscriptionOf } from "../changelog/subscriptions.js";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";

/** Where a follow the team started stands: `declined` when the customer had stopped following (left so). */
export type TeamFollow = "confirmed" | "pending" | "declined" | "none";

/**
 * Makes an end user follow a request the team voted on for them, in the caller's transaction,
 * with the consent rules of the public follow: the address the host vouched for (the SSO token's
 * `email`) follows at once; an address only the customer typed (the reporter email of their
 * feedback) gets a confirmation mail first; a customer who stopped following the request stays
 * stopped; a customer with no known address follows nothing.
 *
 * @example
 * ```ts
 * await followForCustomer(trx, ctx, app, { featureRequestId, requestTitle, vouchedEmail: "ada@acme.example", typedEmail: null, tokenHash });
 * ```
 */
export async function followForCustomer(
  trx: Kysely<Database>,
  ctx: Context,
  app: MailApp,
  input: { featureRequestId: string; requestTitle: string; vouchedEmail: string | null; typedEmail: string | null; tokenHash: string },
): Promise<TeamFollow> {
  const email = input.vouchedEmail ?? input.typedEmail;
  if (email === null) return "none";
  const existing = await requestSubscriptionOf(trx, { appId: app.id, kind: "request", featureRequestId: input.featureRequestId, email });
  if (existing?.status === "unsubscribed") return "declined";
  if (existing?.status === "confirmed") return "confirmed";
  if (input.vouchedEmail === null) {
    await requestSubscription(trx, ctx, app, { kind: "request", featureRequestId: input.featureRequestId, email, tokenHash: input.tokenHash, requestTitle: input.requestTitle });
    return "pending";
  }
  const now = isoNow(ctx.clock);
  const confirmed = { status: "confirmed", confirmNonce: null, confirmedAt: now, unsubscribedAt: null, updatedAt: now } as const;
  await trx
    .insertInto("emailSubscriptions")
    .values({
      id: newId("esub", ctx.clock.now()),
      appId: app.id,
      kind: "request",
      featureRequestId: input.featureRequestId,
      email,
      subscriberTokenHash: input.tokenHash,
      confirmSentAt: null,
      notifiedAt: null,
      createdAt: now,
      ...confirmed,
    })
    // A pending follow of the vouched address is confirmed; nothing else is overwritten.
    .onConflict((oc) => oc.columns(["appId", "kind", "featureRequestId", "email"]).doUpdateSet(confirmed).where("emailSubscriptions.status", "=", "pending"))
    .execute();
  return "confirmed";
}
