import { randomBytes } from "node:crypto";
import type { Insertable } from "kysely";
import type { WebhookEndpointsTable } from "../../server/src/db/schema.js";

/**
 * An enabled webhook endpoint of `appId` as a row to insert, for the tests of what a write does
 * differently while its app has one (its event must be queued in the write's own transaction).
 *
 * @example
 * ```ts
 * await db.insertInto("webhookEndpoints").values(enabledEndpointRow(appId, ["vote.added"])).execute();
 * ```
 */
export function enabledEndpointRow(appId: string, events: readonly string[]): Insertable<WebhookEndpointsTable> {
  const now = new Date().toISOString();
  return {
    id: `wh_test_${randomBytes(6).toString("hex")}`,
    appId,
    url: "https://hooks.example/tidings",
    format: "standard",
    events: JSON.stringify(events),
    enabled: 1,
    description: "",
    secret: "whsec_test",
    consecutiveFailures: 0,
    disabledReason: null,
    disabledAt: null,
    createdAt: now,
    updatedAt: now,
  };
}
