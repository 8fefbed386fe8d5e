import type { Comment } from "@tidings/protocol";
import { PostgresAdapter, type Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { preparedQuery, type ParamRefs } from "../db/prepared-query.js";
import type { Database, FeatureRequestCommentsTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { enabledEndpoints, queueWebhookEvent } from "../webhooks/events.js";
import { requestSnapshot } from "../webhooks/request-snapshot.js";
import { newId } from "../ids.js";
import { countComment, countPublicComment } from "./comment-counts.js";
import { COMMENT_COLUMNS, commentById, toComment, withAuthors, type CommentRow, type CommentSource, type StoredColumn } from "./comment-rows.js";

export interface NewComment {
  featureRequestId: string;
  body: string;
  authorName: string | null;
  authorEmail: string | null;
  endUserId: string | null;
  teamUserId: string | null;
  isTeam: boolean;
  parentId: string | null;
  /** Only while the request is public (approved, not merged), else 404; checked under its lock. */
  publicOnly?: boolean;
  /** The count was moved already, at `now` ({@link countCommentFindUser}): the request's app. */
  counted?: { appId: string; now: string };
}

/**
 * Stores a comment in the caller's transaction. A reply's parent must be a visible comment of
 * the same request (else 400 `invalid_parent`); the @-mention name is taken from the parent,
 * never from the client. The request's count moves first: that update locks the request, so
 * concurrent comments count one after another and a merge or delete cannot slip in between.
 */
export async function addComment(trx: Kysely<Database>, clock: Clock, input: NewComment): Promise<Comment> {
  const now = input.counted?.now ?? isoNow(clock);
  const counted = input.counted ?? (await (input.publicOnly === true ? countPublicComment : countComment).first(trx, { id: input.featureRequestId, now }));
  if (counted === undefined) throw new ApiError("feature_request_not_found");
  let replyToAuthorName: string | null = null;
  if (input.parentId !== null) {
    const parent = await visibleParent.first(trx, { id: input.parentId, featureRequestId: input.featureRequestId });
    if (parent === undefined) throw new ApiError("invalid_parent");
    replyToAuthorName = parent.authorName ?? (parent.isTeam === 1 ? "Team" : null);
  }
  const values: CommentValues = {
    id: newId("cmt", clock.now()),
    featureRequestId: input.featureRequestId,
    endUserId: input.endUserId,
    teamUserId: input.teamUserId,
    authorName: input.authorName,
    authorEmail: input.authorEmail,
    body: input.body,
    parentId: input.parentId,
    replyToAuthorName,
    isTeam: input.isTeam ? 1 : 0,
    now,
  };
  // PostgreSQL stores, reads back and asks whether the app has a webhook endpoint in one round
  // trip (as the vote batch asks); SQLite, in process, takes two statements (it has no INSERT in
  // a WITH) and leaves the endpoints to queueWebhookEvent.
  let stored: CommentRow | undefined;
  let webhooks = true;
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    const row = await insertedComment.first(trx, { ...values, appId: counted.appId });
    stored = row;
    webhooks = row?.webhooks === true;
  } else {
    await insertComment.execute(trx, values);
    stored = await commentById.first(trx, { id: values.id });
  }
  const comment = toComment(stored!);
  if (!webhooks) return comment;
  await queueWebhookEvent(trx, clock, counted.appId, "comment.created", async () => {
    const request = await requestSnapshot(trx, input.featureRequestId);
    if (request === undefined) return undefined;
    const { id, body, authorName, parentId, isTeam, createdAt } = comment;
    return { request, comment: { id, body, authorName, parentId, isTeam, createdAt } };
  });
  return comment;
}

const visibleParent = preparedQuery<{ id: string; featureRequestId: string }, { authorName: string | null; isTeam: number }>((db, p) =>
  db
    .selectFrom("featureRequestComments")
    .select(["authorName", "isTeam"])
    .where("id", "=", p.id)
    .where("featureRequestId", "=", p.featureRequestId)
    .where("isHidden", "=", 0),
);

/** A new comment's values, as `addComment` stores them (visible, created and updated `now`). */
type CommentValues = Omit<FeatureRequestCommentsTable, "isHidden" | "createdAt" | "updatedAt"> & { now: string };

function insertValues(db: Kysely<Database>, p: ParamRefs<CommentValues>) {
  return db.insertInto("featureRequestComments").values({
    id: p.id,
    featureRequestId: p.featureRequestId,
    endUserId: p.endUserId,
    teamUserId: p.teamUserId,
    authorName: p.authorName,
    authorEmail: p.authorEmail,
    body: p.body,
    parentId: p.parentId,
    replyToAuthorName: p.replyToAuthorName,
    isTeam: p.isTeam,
    isHidden: 0,
    createdAt: p.now,
    updatedAt: p.now,
  });
}

const insertComment = preparedQuery<CommentValues, never>((db, p) => insertValues(db, p));

/**
 * PostgreSQL, in one statement: the insert, the stored comment read back with its authors as
 * {@link commentQuery} reads it, and whether the app has an enabled webhook endpoint.
 */
const insertedComment = preparedQuery<CommentValues & { appId: string }, CommentRow & { webhooks: boolean }>((db, p) =>
  withAuthors(
    db.with("cm", () => insertValues(db, p).returning(COMMENT_COLUMNS.map((column) => column.slice("cm.".length) as StoredColumn))).selectFrom("cm") as unknown as CommentSource,
  ).select((eb) => eb.exists(enabledEndpoints(db, p.appId)).as("webhooks")),
);
