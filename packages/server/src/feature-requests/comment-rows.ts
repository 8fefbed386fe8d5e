import type { Comment } from "@tidings/protocol";
import type { Kysely, SelectQueryBuilder } from "kysely";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";

/**
 * A comment's own columns, named rather than `cm.*`: a statement prepared on a PostgreSQL
 * connection keeps its result's shape, so a column added later by another instance's migration
 * must not change what it answers.
 */
export const COMMENT_COLUMNS = [
  "cm.id",
  "cm.featureRequestId",
  "cm.endUserId",
  "cm.teamUserId",
  "cm.authorName",
  "cm.authorEmail",
  "cm.body",
  "cm.parentId",
  "cm.replyToAuthorName",
  "cm.isTeam",
  "cm.isHidden",
  "cm.createdAt",
  "cm.updatedAt",
] as const;

/** A column of {@link COMMENT_COLUMNS}, without its table. */
export type StoredColumn = (typeof COMMENT_COLUMNS)[number] extends `cm.${infer C}` ? C : never;

/** Comments as `cm` (the table, or PostgreSQL's just inserted ones): what {@link withAuthors} reads from. */
export type CommentSource = SelectQueryBuilder<Database & { cm: Database["featureRequestComments"] }, "cm", object>;

export function commentQuery(db: Kysely<Database>) {
  return withAuthors(db.selectFrom("featureRequestComments as cm") as unknown as CommentSource);
}

/** A comment's columns with its author's and its parent's author's public ids. */
export function withAuthors(comments: CommentSource) {
  return comments
    .leftJoin("endUsers as author", "author.id", "cm.endUserId")
    .leftJoin("featureRequestComments as parent", "parent.id", "cm.parentId")
    .leftJoin("endUsers as parentAuthor", "parentAuthor.id", "parent.endUserId")
    .select(COMMENT_COLUMNS)
    .select(["author.publicId as authorPublicId", "author.avatarUrl as authorAvatarUrl", "parentAuthor.publicId as parentPublicId"]);
}

export type CommentRow = Awaited<ReturnType<ReturnType<typeof commentQuery>["executeTakeFirstOrThrow"]>>;

/** The public shape of a comment; the author's email never leaves the server. */
export function toComment(row: CommentRow): Comment {
  return {
    id: row.id,
    featureRequestId: row.featureRequestId,
    authorName: row.authorName,
    // The avatar of an SSO user follows their latest token; others have none.
    authorAvatarUrl: row.authorAvatarUrl ?? null,
    authorClerkId: row.authorPublicId,
    body: row.body,
    parentId: row.parentId,
    replyToClerkId: row.parentPublicId,
    replyToAuthorName: row.replyToAuthorName,
    isTeam: row.isTeam === 1,
    isHidden: row.isHidden === 1,
    createdAt: row.createdAt,
  };
}

export const commentById = preparedQuery<{ id: string }, CommentRow>((db, p) => commentQuery(db).where("cm.id", "=", p.id));
