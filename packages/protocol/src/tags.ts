import Type, { type Static } from "typebox";
import { StringEnum, Timestamp } from "./common.js";
import { SlugSchema } from "./console.js";
import { ColorSchema } from "./roadmap.js";

/** The most tags one app may have. */
export const MAX_TAGS_PER_APP = 200;
/** The most tags one request may carry. */
export const MAX_TAGS_PER_REQUEST = 10;
/** The most tags a listing may filter on at once (every one must match). */
export const MAX_TAG_FILTERS = 5;

export const TAG_VISIBILITIES = ["public", "team"] as const;
/** `public`: shown on the request everywhere; `team`: only in the console. */
export type TagVisibility = (typeof TAG_VISIBILITIES)[number];
export const TagVisibilitySchema = StringEnum(TAG_VISIBILITIES);

/** A tag as the public API shows it on a request. */
export const PublicTagSchema = Type.Object({
  name: Type.String(),
  slug: Type.String(),
  color: Type.Union([ColorSchema, Type.Null()]),
});
export type PublicTag = Static<typeof PublicTagSchema>;

/** A tag as the console shows it. */
export const TagSchema = Type.Object({
  id: Type.String(),
  appId: Type.String(),
  ...PublicTagSchema.properties,
  visibility: TagVisibilitySchema,
  /** Requests carrying it, every state included. */
  requestCount: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Tag = Static<typeof TagSchema>;

export const TagsResponseSchema = Type.Object({ tags: Type.Array(TagSchema) });

const TagName = Type.String({ minLength: 1, maxLength: 40 });

export const CreateTagBodySchema = Type.Object({
  name: TagName,
  slug: Type.Optional(SlugSchema),
  color: Type.Optional(Type.Union([ColorSchema, Type.Null()])),
  visibility: Type.Optional(TagVisibilitySchema),
});
export type CreateTagBody = Static<typeof CreateTagBodySchema>;

export const UpdateTagBodySchema = Type.Object({
  name: Type.Optional(TagName),
  slug: Type.Optional(SlugSchema),
  color: Type.Optional(Type.Union([ColorSchema, Type.Null()])),
  visibility: Type.Optional(TagVisibilitySchema),
});
export type UpdateTagBody = Static<typeof UpdateTagBodySchema>;

/** Adds and removes tags on many requests of one app at once. */
export const BulkTagBodySchema = Type.Object({
  featureRequestIds: Type.Array(Type.String(), { minItems: 1, maxItems: 500 }),
  add: Type.Optional(Type.Array(Type.String(), { maxItems: MAX_TAGS_PER_REQUEST })),
  remove: Type.Optional(Type.Array(Type.String(), { maxItems: MAX_TAGS_PER_APP })),
});
export const BulkTagResponseSchema = Type.Object({
  /** Request–tag pairs added and removed. */
  added: Type.Integer({ minimum: 0 }),
  removed: Type.Integer({ minimum: 0 }),
});
