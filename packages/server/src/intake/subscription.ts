import type { SubscriptionStatus } from "@tidings/protocol";
import { ApiError } from "../http/errors.js";

/** The subscription statuses under which a workspace accepts submissions. */
export const OPEN_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ["active", "trialing"];

/**
 * Throws 402 `subscription_inactive` unless the workspace's subscription is active or trialing.
 *
 * @example
 * ```ts
 * requireOpenSubscription(workspace.subscriptionStatus);
 * ```
 */
export function requireOpenSubscription(status: string): void {
  if (!(OPEN_SUBSCRIPTION_STATUSES as readonly string[]).includes(status)) {
    throw new ApiError("subscription_inactive");
  }
}
