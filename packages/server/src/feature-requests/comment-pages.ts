import type { Kysely } from "kysely";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import { COMMENT_COLUMNS, commentQuery, toComment, type CommentRow } from "./comment-rows.js";

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
