import Type, { type Static } from "typebox";
import { Timestamp } from "./common.js";
import { ModerationStateSchema } from "./admin-feature-requests.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** How many pairs a page of the duplicates queue holds at most. */
export const MAX_DUPLICATE_PAGE = 100;

/** One side of a likely duplicate pair, as the queue shows it. */
export const DuplicateRequestSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  boardId: Type.String(),
  boardName: Type.String(),
  voteCount: Type.Integer(),
  commentCount: Type.Integer(),
  moderation: ModerationStateSchema,
  /** The column's slug, as the public item's `status`. */
  status: Type.String(),
  columnId: NullableString,
  columnName: NullableString,
  createdAt: Timestamp,
});
export type DuplicateRequest = Static<typeof DuplicateRequestSchema>;

/** Two requests of one app that look alike: `newer` was created after `older`. */
export const DuplicatePairSchema = Type.Object({
  /** How alike the titles are, from 0 (nothing shared) to 1 (the same words). */
  score: Type.Number({ minimum: 0, maximum: 1 }),
  newer: DuplicateRequestSchema,
  older: DuplicateRequestSchema,
});
export type DuplicatePair = Static<typeof DuplicatePairSchema>;

export const DuplicateListQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DUPLICATE_PAGE, default: 20 })),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
});

export const DuplicateListSchema = Type.Object({
  /** Newest first: by the newer request's creation, then most alike. */
  pairs: Type.Array(DuplicatePairSchema),
  /** Where the next page starts; null once the queue's window is walked. A page may hold fewer pairs than `limit` and still have a next one. */
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type DuplicateList = Static<typeof DuplicateListSchema>;

/** Marks a pair as not a duplicate: it never shows in the queue again. */
export const DismissDuplicateBodySchema = Type.Object({
  requestIds: Type.Array(Type.String({ maxLength: 64 }), { minItems: 2, maxItems: 2 }),
});
export const DismissDuplicateResultSchema = Type.Object({
  /** The pair's ids, in a fixed order (the smaller id first). */
  requestIds: Type.Array(Type.String(), { minItems: 2, maxItems: 2 }),
  /** When the pair was first marked; repeating the call keeps it. */
  dismissedAt: Timestamp,
});
export type DismissDuplicateResult = Static<typeof DismissDuplicateResultSchema>;

/** Merges one request of a pair into the other, which stays. */
export const MergeDuplicateBodySchema = Type.Object({
  duplicateId: Type.String({ maxLength: 64 }),
  intoId: Type.String({ maxLength: 64 }),
});
