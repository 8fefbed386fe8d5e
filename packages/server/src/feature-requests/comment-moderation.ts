import type { Kysely } from "kysely";
import { isoNow } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { moveCommentCount } from "./comment-counts.js";
import { lockRequests } from "./request-locks.js";
import type { Triage } from "./triage.js";

/** A comment of the workspace with its request's app, or 404 `comment_not_found`. */
async function findCommentInWorkspace(db: Kysely<Database>, workspaceId: string, commentId: string) {
  const row = await db
    .selectFrom("featureRequestComments as cm")
    .innerJoin("featureRequests as fr", "fr.id", "cm.featureRequestId")
    .innerJoin("apps as a", "a.id", "fr.appId")
    .select(["cm.id", "cm.featureRequestId", "cm.isHidden", "fr.appId"])
    .where("cm.id", "=", commentId)
    .where("a.workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("comment_not_found");
  return row;
}

/**
 * The comment with its request locked (see `lockRequests`): read again after the lock, since a
 * merge may have moved it to another request meanwhile; then its request and visibility hold
 * until the transaction ends.
 */
async function lockedComment(t: Triage, commentId: string) {
  let comment = await findCommentInWorkspace(t.trx, t.workspaceId, commentId);
  for (;;) {
    await lockRequests(t.trx, t.dialect, [comment.featureRequestId]);
    const current = await findCommentInWorkspace(t.trx, t.workspaceId, commentId);
    if (current.featureRequestId === comment.featureRequestId) return current;
    comment = current;
  }
}

/** Hides or shows a comment; the request's visible count moves only when the comment's state does. */
export async function setCommentHidden(t: Triage, commentId: string, isHidden: boolean): Promise<{ appId: string }> {
  const comment = await lockedComment(t, commentId);
  if ((comment.isHidden === 1) === isHidden) return comment;
  await t.trx
    .updateTable("featureRequestComments")
    .set({ isHidden: isHidden ? 1 : 0, updatedAt: isoNow(t.clock) })
    .where("id", "=", comment.id)
    .execute();
  await moveCommentCount(t.trx, comment.featureRequestId, isHidden ? -1 : 1);
  return comment;
}

/** Deletes one comment (its replies stay, still naming it as parent); a visible one leaves the count. */
export async function deleteComment(t: Triage, commentId: string): Promise<{ appId: string }> {
  const comment = await lockedComment(t, commentId);
  await t.trx.deleteFrom("featureRequestComments").where("id", "=", comment.id).execute();
  if (comment.isHidden === 0) await moveCommentCount(t.trx, comment.featureRequestId, -1);
  return comment;
}
