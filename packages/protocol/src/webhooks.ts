import Type, { type Static } from "typebox";
import { StringEnum, Timestamp } from "./common.js";

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * Every event an endpoint can subscribe to (docs/webhooks.md describes each payload).
 *
 * @example
 * ```ts
 * WEBHOOK_EVENT_TYPES.includes("vote.added"); // true
 * ```
 */
export const WEBHOOK_EVENT_TYPES = [
  "request.created",
  "request.status_changed",
  "request.merged",
  "request.deleted",
  "comment.created",
  "vote.added",
  "vote.removed",
  "feedback.submitted",
  "changelog.published",
  "subscriber.confirmed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** How a delivery's body is shaped: signed JSON, or a Slack or Discord incoming-webhook message. */
export const WEBHOOK_FORMATS = ["standard", "slack", "discord"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

const WebhookUrl = Type.String({ minLength: 8, maxLength: 2048, description: "An http(s) URL; private and loopback addresses are refused" });
const WebhookEvents = Type.Array(StringEnum(WEBHOOK_EVENT_TYPES), { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true });
const Description = Type.String({ maxLength: 200 });

export const CreateWebhookBodySchema = Type.Object(
  {
    url: WebhookUrl,
    events: WebhookEvents,
    format: Type.Optional(StringEnum(WEBHOOK_FORMATS, { description: "standard (default), slack or discord" })),
    enabled: Type.Optional(Type.Boolean({ description: "true unless told otherwise" })),
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBodySchema>;

export const WebhookPatchSchema = Type.Object(
  {
    url: Type.Optional(WebhookUrl),
    events: Type.Optional(WebhookEvents),
    format: Type.Optional(StringEnum(WEBHOOK_FORMATS)),
    enabled: Type.Optional(Type.Boolean()),
    description: Type.Optional(Description),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type WebhookPatch = Static<typeof WebhookPatchSchema>;

/** An endpoint as the console lists it (never with its secret). */
export const WebhookEndpointSchema = Type.Object({
  id: Type.String(),
  appId: Type.String(),
  url: Type.String(),
  format: StringEnum(WEBHOOK_FORMATS),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  description: Type.String(),
  /** Deliveries in a row that failed every attempt; reset by a success. */
  consecutiveFailures: Type.Integer(),
  /** Why the server disabled it (`failing`), or null when enabled or disabled by hand. */
  disabledReason: Nullable(Type.String()),
  disabledAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

/** The answer of create and rotate: the only time the signing secret is shown. */
export const WebhookWithSecretSchema = Type.Intersect([WebhookEndpointSchema, Type.Object({ secret: Type.String({ description: "whsec_…, shown once" }) })]);

/** One HTTP attempt of a delivery. */
export const WebhookAttemptSchema = Type.Object({
  attempt: Type.Integer(),
  at: Timestamp,
  outcome: StringEnum(["success", "http_error", "network_error", "timeout", "refused"] as const),
  statusCode: Nullable(Type.Integer()),
  latencyMs: Type.Integer(),
  /** The first bytes of the answer (or the error), at most 1 KiB of text. */
  excerpt: Type.String(),
});

/** One event sent to one endpoint, with every attempt. */
export const WebhookDeliverySchema = Type.Object({
  id: Type.String(),
  endpointId: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  status: StringEnum(["pending", "delivered", "failed", "cancelled"] as const),
  attemptCount: Type.Integer(),
  nextAttemptAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  attempts: Type.Array(WebhookAttemptSchema),
});
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = Type.Object({ deliveries: Type.Array(WebhookDeliverySchema) });
