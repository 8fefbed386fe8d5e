import type { Comment } from "@tidings/protocol";
import { PostgresAdapter, type Kysely, type SelectQueryBuilder } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { preparedQuery, type ParamRefs } from "../db/prepared-query.js";
import type { Database, FeatureRequestCommentsTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { enabledEndpoints, queueWebhookEvent, requestSnapshot } from "../webhooks/events.js";
import { newId } from "../ids.js";
import { decodeCursor, encodeCursor } from "./cursor.js";

/**
 * A comment's own columns, named rather than `cm.*`: a statement prepared on a PostgreSQL
 * connection keeps its result's shape, so a column added later by another instance's migration
 * must not change what it answers.
 */
const COMMENT_COLUMNS = [
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
type StoredColumn = (typeof COMMENT_COLUMNS)[number] extends `cm.${infer C}` ? C : never;

/** Comments as `cm` (the table, or PostgreSQL's just inserted ones): what {@link withAuthors} reads from. */
type CommentSource = SelectQueryBuilder<Database & { cm: Database["featureRequestComments"] }, "cm", object>;

function commentQuery(db: Kysely<Database>) {
  return withAuthors(db.selectFrom("featureRequestComments as cm") as unknown as CommentSource);
}

/** A comment's columns with its author's and its parent's author's public ids. */
function withAuthors(comments: CommentSource) {
  return comments
    .leftJoin("endUsers as author", "author.id", "cm.endUserId")
    .leftJoin("featureRequestComments as parent", "parent.id", "cm.parentId")
    .leftJoin("endUsers as parentAuthor", "parentAuthor.id", "parent.endUserId")
    .select(COMMENT_COLUMNS)
    .select(["author.publicId as authorPublicId", "author.avatarUrl as authorAvatarUrl", "parentAuthor.publicId as parentPublicId"]);
}

type CommentRow = Awaited<ReturnType<ReturnType<typeof commentQuery>["executeTakeFirstOrThrow"]>>;

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

/** Visible comments of a request, oldest first, paged by a keyset cursor. */
export async function listComments(
  db: Kysely<Database>,
  featureRequestId: string,
  page: { limit: number; cursor: string | undefined; includeHidden?: boolean },
) {
  let query = commentQuery(db).where("cm.featureRequestId", "=", featureRequestId);
  let counted = db.selectFrom("featureRequestComments").where("featureRequestId", "=", featureRequestId);
  if (page.includeHidden !== true) {
    query = query.where("cm.isHidden", "=", 0);
    counted = counted.where("isHidden", "=", 0);
  }
  if (page.cursor !== undefined) {
    const c = decodeCursor<{ c: string; i: string; r: string }>(page.cursor, { c: "string", i: "string", r: "string" }, { r: featureRequestId });
    query = query.where((eb) => eb.or([eb("cm.createdAt", ">", c.c), eb.and([eb("cm.createdAt", "=", c.c), eb("cm.id", ">", c.i)])]));
  }
  // The count rides along with the page (one statement, one round trip on PostgreSQL); only a
  // page past the end, which has no row to carry it, counts on its own.
  const total = (q: typeof counted) => q.select((eb) => eb.fn.countAll<number>().as("n"));
  const rows = await query
    .select(() => total(counted).as("total"))
    .orderBy("cm.createdAt", "asc")
    .orderBy("cm.id", "asc")
    .limit(page.limit + 1)
    .execute();
  const first = rows[0];
  const count = first !== undefined ? Number(first.total) : page.cursor === undefined ? 0 : Number((await total(counted).executeTakeFirstOrThrow()).n);
  const hasMore = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  const last = pageRows.at(-1);
  return {
    comments: pageRows.map(toComment),
    total: count,
    hasMore,
    nextCursor: hasMore && last !== undefined ? encodeCursor({ c: last.createdAt, i: last.id, r: featureRequestId }) : null,
  };
}

/**
 * The first page of a public request's visible comments, as {@link listComments} answers it, with
 * the request's app; undefined when the request is not public (approved, not merged). One
 * prepared statement where the public route sent three (find the request, then the page with its
 * count, built anew each time): the request's row, its comments joined to it (none: one row of
 * nulls) and their count, computed once. The caller still checks the app before answering.
 */
export async function firstPublicComments(db: Kysely<Database>, featureRequestId: string, limit: number) {
  const rows = await firstPublicPage.rows(db, { id: featureRequestId, limit: limit + 1 });
  const first = rows[0];
  if (first === undefined) return undefined;
  const found = rows.filter((row): row is typeof row & { id: string } => row.id !== null) as unknown as Array<CommentRow & { total: number }>;
  const pageRows = found.slice(0, limit);
  const hasMore = found.length > limit;
  const last = pageRows.at(-1);
  return {
    appId: first.requestAppId,
    boardId: first.requestBoardId,
    page: {
      comments: pageRows.map(toComment),
      total: Number(first.total),
      hasMore,
      nextCursor: hasMore && last !== undefined ? encodeCursor({ c: last.createdAt, i: last.id, r: featureRequestId }) : null,
    },
  };
}

const firstPublicPage = preparedQuery<{ id: string; limit: number }, { requestAppId: string; requestBoardId: string; id: string | null; total: number } & Omit<CommentRow, "id">>(
  (db, p) =>
    db
      .selectFrom("featureRequests as fr")
      .leftJoin("featureRequestComments as cm", (join) => join.onRef("cm.featureRequestId", "=", "fr.id").on("cm.isHidden", "=", 0))
      .leftJoin("endUsers as author", "author.id", "cm.endUserId")
      .leftJoin("featureRequestComments as parent", "parent.id", "cm.parentId")
      .leftJoin("endUsers as parentAuthor", "parentAuthor.id", "parent.endUserId")
      .select(COMMENT_COLUMNS)
      .select(["fr.appId as requestAppId", "fr.boardId as requestBoardId", "author.publicId as authorPublicId", "author.avatarUrl as authorAvatarUrl", "parentAuthor.publicId as parentPublicId"])
      // On the parameter, not on `fr.id`: counted once, not once per row.
      .select((eb) =>
        eb
          .selectFrom("featureRequestComments")
          .where("featureRequestId", "=", p.id)
          .where("isHidden", "=", 0)
          .select((c) => c.fn.countAll<number>().as("n"))
          .as("total"),
      )
      .where("fr.id", "=", p.id)
      .where("fr.moderation", "=", "approved")
      .where("fr.mergedIntoId", "is", null)
      .orderBy("cm.createdAt", "asc")
      .orderBy("cm.id", "asc")
      .limit(p.limit) as never,
);

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
 * Moves a request's `comment_count` by the visible comments added (+) or removed (−); answers
 * the request's app, or undefined when the request is gone (one round trip for both). The
 * update takes the request's row lock (see `lockRequests`).
 */
export async function moveCommentCount(
  trx: Kysely<Database>,
  featureRequestId: string,
  by: number,
  options: { updatedAt?: string; publicOnly?: boolean } = {},
): Promise<{ appId: string } | undefined> {
  let query = trx
    .updateTable("featureRequests")
    .set((eb) => ({ commentCount: eb("commentCount", "+", by), ...(options.updatedAt === undefined ? {} : { updatedAt: options.updatedAt }) }))
    .where("id", "=", featureRequestId);
  if (options.publicOnly === true) query = query.where("moderation", "=", "approved").where("mergedIntoId", "is", null);
  return query.returning("appId").executeTakeFirst();
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

/**
 * `addComment`'s statements, prepared (the public comment is a hot write path): the count's move
 * (`moveCommentCount` with `updatedAt`; `publicOnly` or not), the parent's check, the insert and
 * the stored comment read back with its authors. The count's move is built once per value of
 * `publicOnly`, which adds the public-only condition as `moveCommentCount` does.
 */
function countUpdate(db: Kysely<Database>, p: ParamRefs<{ id: string; now: string }>, publicOnly: boolean) {
  const query = db
    .updateTable("featureRequests")
    .set((eb) => ({ commentCount: eb("commentCount", "+", 1), updatedAt: p.now }))
    .where("id", "=", p.id);
  return (publicOnly ? query.where("moderation", "=", "approved").where("mergedIntoId", "is", null) : query).returning("appId");
}

function countedComment(publicOnly: boolean) {
  return preparedQuery<{ id: string; now: string }, { appId: string }>((db, p) => countUpdate(db, p, publicOnly));
}

const countComment = countedComment(false);
const countPublicComment = countedComment(true);

/**
 * PostgreSQL, a public comment's first statement: moves the request's count as
 * {@link addComment} does for a public comment (the update takes the request's row lock, so it
 * comes before the end user is minted, in the order votes take them) and finds the caller's end
 * user by token hash in the same round trip (null when the token has none yet). Hand the count to
 * `addComment` as `counted` and the user to `ensureEndUser`. 404 when the request is not public.
 */
export async function countCommentFindUser(
  trx: Kysely<Database>,
  input: { id: string; appId: string; hash: string; now: string },
): Promise<{ counted: { appId: string; now: string }; endUser: { id: string; publicId: string } | null }> {
  const row = await countedWithUser.first(trx, input);
  if (row === undefined) throw new ApiError("feature_request_not_found");
  return { counted: { appId: row.appId, now: input.now }, endUser: row.endUserId === null || row.publicId === null ? null : { id: row.endUserId, publicId: row.publicId } };
}

const countedWithUser = preparedQuery<{ id: string; appId: string; hash: string; now: string }, { appId: string; endUserId: string | null; publicId: string | null }>((db, p) =>
  db
    .with("fr", () => countUpdate(db, p, true))
    .selectFrom("fr")
    .leftJoin("endUsers as eu", (join) => join.on("eu.appId", "=", p.appId).on("eu.tokenHash", "=", p.hash))
    .select(["fr.appId", "eu.id as endUserId", "eu.publicId"]),
);

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

const commentById = preparedQuery<{ id: string }, CommentRow>((db, p) => commentQuery(db).where("cm.id", "=", p.id));
