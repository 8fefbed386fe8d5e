import Type, { type Static } from "typebox";
import { Timestamp } from "./common.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** A comment or reply (wire-contract §7.5). */
export const CommentSchema = Type.Object({
  id: Type.String(),
  featureRequestId: Type.String(),
  authorName: NullableString,
  authorAvatarUrl: NullableString,
  /** The author's public id (`u_…`), or null for team replies. */
  authorClerkId: NullableString,
  body: Type.String(),
  parentId: NullableString,
  replyToClerkId: NullableString,
  replyToAuthorName: NullableString,
  isTeam: Type.Boolean(),
  isHidden: Type.Boolean(),
  createdAt: Timestamp,
});
export type Comment = Static<typeof CommentSchema>;

export const CommentListQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  cursor: Type.Optional(Type.String({ maxLength: 1000 })),
});
export const CommentListSchema = Type.Object({
  comments: Type.Array(CommentSchema),
  total: Type.Integer(),
  hasMore: Type.Boolean(),
  nextCursor: NullableString,
});

export const PostCommentBodySchema = Type.Object({
  body: Type.String({ minLength: 1, maxLength: 5000 }),
  authorName: Type.Optional(Type.String({ maxLength: 100 })),
  authorEmail: Type.Optional(Type.String({ maxLength: 254 })),
  authorAvatarUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  parentId: Type.Optional(Type.String({ maxLength: 64 })),
  replyToClerkId: Type.Optional(Type.String({ maxLength: 64 })),
  replyToAuthorName: Type.Optional(Type.String({ maxLength: 100 })),
});
