import type { Insertable } from "kysely";
import type { EmailSubscriptionsTable, SubscriptionStatus } from "../../server/src/db/schema.js";

/**
 * A changelog subscription row as the database holds it, for tests that seed subscribers directly
 * (the `index` makes a stable id): confirmed or unsubscribed at `at` as its status says.
 *
 * @example
 * ```ts
 * await db.kysely.insertInto("emailSubscriptions").values(emails.map((email, i) => subscriptionRow(i, appId, email, "confirmed", at))).execute();
 * ```
 */
export function subscriptionRow(index: number, appId: string, email: string, status: SubscriptionStatus, at: string): Insertable<EmailSubscriptionsTable> {
  return {
    id: `esub_${String(index).padStart(26, "0")}`,
    appId,
    kind: "changelog",
    featureRequestId: "",
    email,
    status,
    subscriberTokenHash: null,
    confirmNonce: null,
    confirmSentAt: null,
    confirmedAt: status === "confirmed" ? at : null,
    unsubscribedAt: status === "unsubscribed" ? at : null,
    notifiedAt: null,
    createdAt: at,
    updatedAt: at,
  };
}
