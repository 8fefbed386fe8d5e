import Type, { type Static } from "typebox";
import { PageOffset, StringEnum, Timestamp } from "./common.js";
import { MarkdownBlocksSchema } from "./markdown.js";

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const LinkedRequestSchema = Type.Object({ id: Type.String(), title: Type.String() });

/**
 * A published release as the SDKs read it (wire contract §7.6), plus the Markdown rendered twice
 * by one parser: sanitised `html` for browsers and `blocks` for renderers without HTML.
 */
export const ChangelogEntrySchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  body: Type.String({ description: "Markdown" }),
  html: Type.String({ description: "The Markdown rendered and sanitised" }),
  blocks: MarkdownBlocksSchema,
  versionLabel: Nullable(Type.String()),
  publishedAt: Timestamp,
  linkedRequests: Type.Array(LinkedRequestSchema),
});
export type ChangelogEntry = Static<typeof ChangelogEntrySchema>;

export const ChangelogFeedQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
});
export const ChangelogFeedSchema = Type.Object({
  entries: Type.Array(ChangelogEntrySchema),
  hasMore: Type.Boolean(),
  nextCursor: Nullable(Type.String()),
});

export const SubscribeBodySchema = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) });
export const SubscribeResultSchema = Type.Object({
  subscribed: Type.Boolean(),
  success: Type.Boolean(),
  alreadySubscribed: Type.Boolean(),
});
export const TokenBodySchema = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 2000 })),
  email: Type.Optional(Type.String({ maxLength: 254 })),
});
export const ConfirmResultSchema = Type.Object({ confirmed: Type.Boolean() });
export const UnsubscribeResultSchema = Type.Object({ unsubscribed: Type.Boolean() });

export const CHANGELOG_STATUSES = ["draft", "scheduled", "published"] as const;

/** Mail progress of a release's subscriber blast. */
export const DeliveryProgressSchema = Type.Object({
  total: Type.Integer(),
  sent: Type.Integer(),
  pending: Type.Integer(),
  failed: Type.Integer(),
  lastError: Nullable(Type.String()),
});

/** The console view of a release (§7.6 console additions). */
export const AdminChangelogEntrySchema = Type.Object({
  id: Type.String(),
  appId: Type.String(),
  title: Type.String(),
  body: Type.String(),
  html: Type.String(),
  versionLabel: Nullable(Type.String()),
  versionId: Nullable(Type.String()),
  status: StringEnum(CHANGELOG_STATUSES),
  scheduledAt: Nullable(Timestamp),
  publishedAt: Nullable(Timestamp),
  notifiedAt: Nullable(Timestamp),
  /** Only this segment's subscribers are mailed the release; null: every subscriber. */
  emailSegmentId: Nullable(Type.String()),
  linkedRequestIds: Type.Array(Type.String()),
  linkedRequests: Type.Array(LinkedRequestSchema),
  subscriberCount: Type.Integer(),
  delivery: DeliveryProgressSchema,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type AdminChangelogEntry = Static<typeof AdminChangelogEntrySchema>;

export const AdminChangelogListQuerySchema = Type.Object({
  appId: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(PageOffset(100_000)),
});
export const AdminChangelogListSchema = Type.Object({
  entries: Type.Array(AdminChangelogEntrySchema),
  total: Type.Integer(),
  hasMore: Type.Boolean(),
});

const LinkedIds = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 });

export const CreateChangelogBodySchema = Type.Object({
  appId: Type.String({ maxLength: 64 }),
  title: Type.String({ minLength: 1, maxLength: 200 }),
  body: Type.String({ maxLength: 100_000 }),
  versionLabel: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  versionId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  linkedRequestIds: Type.Optional(LinkedIds),
  publishNow: Type.Optional(Type.Boolean()),
  scheduledAt: Type.Optional(Nullable(Timestamp)),
  /** Mail the release only to subscribers who are members of this segment of the app. */
  emailSegmentId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
});
export const UpdateChangelogBodySchema = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  body: Type.Optional(Type.String({ maxLength: 100_000 })),
  versionLabel: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  versionId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  linkedRequestIds: Type.Optional(LinkedIds),
  scheduledAt: Type.Optional(Nullable(Timestamp)),
  /** Mail only this segment's subscribers (null: every one); ignored once the release was mailed. */
  emailSegmentId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
});
