import type { WebhookEventType } from "@tidings/protocol";

/** Version of the event envelope; a breaking change of any payload bumps it. */
export const WEBHOOK_EVENT_VERSION = 1;

/** The test event of "send test event": sent to one endpoint whatever events it chose. */
export type WebhookEventName = WebhookEventType | "webhook.test";

/**
 * An event as recorded in the write's transaction: the envelope receivers get in the `standard`
 * format (links are added when it is sent, from `PUBLIC_URL`), and what Slack and Discord
 * messages are rendered from.
 */
export interface WebhookEvent {
  type: WebhookEventName;
  version: number;
  id: string;
  timestamp: string;
  app: { id: string; key: string; name: string };
  data: Record<string, unknown>;
}
