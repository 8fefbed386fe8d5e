import type { Comment } from "@tidings/protocol";
import { sql, type Kysely, type SqlBool } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";
import { enabledEndpoints } from "../webhooks/events.js";
import { countUpdate } from "./comment-counts.js";
import { COMMENT_COLUMNS, toComment, withAuthors, type CommentRow, type CommentSource, type StoredColumn } from "./comment-rows.js";

/** A public comment that {@link quickComment} may store: no reply, no idempotency key, no SSO profile to record. */
export type QuickComment = {
  featureRequestId: string;
  appId: string;
  /** The caller's token hash (`tokenHash`). */
  hash: string;
  body: string;
  authorName: string | null;
  authorEmail: string | null;
};

/**
 * PostgreSQL, the common public comment as one statement, which is its own transaction: the
 * caller already has an end user, the request is public, and the app has no enabled webhook
 * endpoint. The statement moves the request's count (taking its row lock, as `addComment`
 * does), stores the comment and reads it back with its authors, or, when any of those
 * conditions fails, writes nothing and answers undefined: the caller then takes the
 * transaction of `addComment`, which tells the cases apart (404, a new end user, the webhook).
 *
 * @example
 * ```ts
 * const comment = await quickComment(db, clock, { featureRequestId, appId, hash: tokenHash(token), body, authorName: null, authorEmail: null });
 * ```
 */
export async function quickComment(db: Kysely<Database>, clock: Clock, input: QuickComment): Promise<Comment | undefined> {
  const row = await storedQuickly.first(db, { ...input, id: newId("cmt", clock.now()), now: isoNow(clock) });
  return row === undefined ? undefined : toComment(row);
}

const storedQuickly = preparedQuery<QuickComment & { id: string; now: string }, CommentRow>((db, p) =>
  withAuthors(
    db
      .with("eu", (q) => q.selectFrom("endUsers").select("id").where("appId", "=", p.appId).where("tokenHash", "=", p.hash))
      .with("fr", () =>
        countUpdate(db, { id: p.featureRequestId, now: p.now }, true)
          .where(sql<SqlBool>`exists (select from eu)`)
          .where((eb) => eb.not(eb.exists(enabledEndpoints(db, p.appId)))),
      )
      .with("cm", (q) =>
        q
          .insertInto("featureRequestComments")
          .columns(["id", "featureRequestId", "endUserId", "teamUserId", "authorName", "authorEmail", "body", "parentId", "replyToAuthorName", "isTeam", "isHidden", "createdAt", "updatedAt"])
          .expression(
            q
              .selectFrom(["fr", "eu"])
              .select((eb) => [
                eb.val(p.id).as("id"),
                eb.val(p.featureRequestId).as("featureRequestId"),
                "eu.id as endUserId",
                sql<null>`null`.as("teamUserId"),
                eb.val(p.authorName).as("authorName"),
                eb.val(p.authorEmail).as("authorEmail"),
                eb.val(p.body).as("body"),
                sql<null>`null`.as("parentId"),
                sql<null>`null`.as("replyToAuthorName"),
                sql<number>`0`.as("isTeam"),
                sql<number>`0`.as("isHidden"),
                eb.val(p.now).as("createdAt"),
                eb.val(p.now).as("updatedAt"),
              ]),
          )
          .returning(COMMENT_COLUMNS.map((column) => column.slice("cm.".length) as StoredColumn)),
      )
      .selectFrom("cm") as unknown as CommentSource,
  ),
);
