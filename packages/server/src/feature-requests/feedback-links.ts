import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import { isoNow } from "../clock.js";
import type { Db } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { addVoteFor, removeLinkedVote } from "./votes-for.js";

/** How much of a linked feedback's description the request's record quotes. */
export const QUOTE_CHARS = 280;

/** A request's feedback as the console lists it. */
export interface LinkedFeedback {
  submissionId: string;
  title: string;
  /** The first {@link QUOTE_CHARS} characters of the description (`…` when cut), or the title when it has none. */
  quote: string;
  reporterName: string | null;
  reporterEmail: string | null;
  /** The reporter counted as a voter (identified), by public id; null for anonymous feedback. */
  voterPublicId: string | null;
  linkedAt: string;
  createdAt: string;
}

/**
 * The request feedback can be linked to: a request of the workspace (else 404
 * `feature_request_not_found`, other workspaces' included) that belongs to the feedback's app
 * and is visible (approved, not merged); else 400 `feature_request_not_linkable`.
 */
export async function linkableRequest(db: Kysely<Database>, where: { workspaceId: string } | { appId: string }, appId: string, id: string): Promise<{ id: string; boardId: string }> {
  let query = db
    .selectFrom("featureRequests as fr")
    .innerJoin("apps as a", "a.id", "fr.appId")
    .select(["fr.id", "fr.appId", "fr.boardId", "fr.moderation", "fr.mergedIntoId"])
    .where("fr.id", "=", id);
  query = "workspaceId" in where ? query.where("a.workspaceId", "=", where.workspaceId) : query.where("fr.appId", "=", where.appId);
  const row = await query.executeTakeFirst();
  if (row === undefined) {
    if ("workspaceId" in where) throw new ApiError("feature_request_not_found");
    throw new ApiError("feature_request_not_linkable");
  }
  if (row.appId !== appId || row.moderation !== "approved" || row.mergedIntoId !== null) throw new ApiError("feature_request_not_linkable");
  return { id: row.id, boardId: row.boardId };
}

interface LinkedSubmission {
  id: string;
  appId: string;
  endUserId: string | null;
  featureRequestId: string | null;
}

async function lockSubmission(trx: Kysely<Database>, dialect: Db["dialect"], workspaceId: string, id: string): Promise<LinkedSubmission> {
  let query = trx.selectFrom("submissions").select(["id", "appId", "endUserId", "featureRequestId"]).where("id", "=", id).where("workspaceId", "=", workspaceId);
  if (dialect === "postgres") query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (row === undefined) throw new ApiError("submission_not_found");
  return row;
}

/**
 * Records, in the caller's transaction, that submission `sub` is evidence for request
 * `featureRequestId` (already checked linkable): the link, and the reporter's vote when the
 * reporter is an identified end user who has not voted (credited to the link, so unlinking
 * removes exactly that vote). Answers whether a vote was added.
 */
export async function writeLink(trx: Kysely<Database>, clock: Clock, dialect: Db["dialect"], sub: { id: string; appId: string; endUserId: string | null }, featureRequestId: string): Promise<boolean> {
  const now = isoNow(clock);
  await trx.updateTable("submissions").set({ featureRequestId, linkedAt: now, updatedAt: now }).where("id", "=", sub.id).execute();
  if (sub.endUserId === null) return false;
  const vote = await addVoteFor(trx, clock, dialect, { featureRequestId, appId: sub.appId, endUserId: sub.endUserId, sourceSubmissionId: sub.id });
  return vote.added;
}

async function writeUnlink(trx: Kysely<Database>, clock: Clock, dialect: Db["dialect"], sub: LinkedSubmission): Promise<void> {
  if (sub.featureRequestId === null) return;
  const now = isoNow(clock);
  await trx.updateTable("submissions").set({ featureRequestId: null, linkedAt: null, updatedAt: now }).where("id", "=", sub.id).execute();
  if (sub.endUserId !== null) {
    await removeLinkedVote(trx, clock, dialect, { featureRequestId: sub.featureRequestId, appId: sub.appId, endUserId: sub.endUserId, submissionId: sub.id });
  }
}

/**
 * Links a workspace's feedback to one of its app's visible requests, moving it from the request
 * it was linked to before, if any (that link is undone first). Idempotent: linking it again to
 * the same request changes nothing. Runs in a transaction shared with votes on the request, so
 * its count stays exact. Answers the apps whose cached pages changed.
 *
 * @example
 * ```ts
 * await linkFeedback(ctx.db, ctx.clock, wsId, "sub_…", "fr_…");
 * ```
 */
export async function linkFeedback(db: Db, clock: Clock, workspaceId: string, submissionId: string, featureRequestId: string): Promise<{ appId: string; changed: boolean }> {
  const sub = await db.kysely.selectFrom("submissions").select(["appId"]).where("id", "=", submissionId).where("workspaceId", "=", workspaceId).executeTakeFirst();
  if (sub === undefined) throw new ApiError("submission_not_found");
  await linkableRequest(db.kysely, { workspaceId }, sub.appId, featureRequestId);
  const changed = await db.sharedTransaction(async (trx) => {
    const locked = await lockSubmission(trx, db.dialect, workspaceId, submissionId);
    if (locked.featureRequestId === featureRequestId) return false;
    await writeUnlink(trx, clock, db.dialect, locked);
    await writeLink(trx, clock, db.dialect, locked, featureRequestId);
    return true;
  }, featureRequestId);
  return { appId: sub.appId, changed };
}

/**
 * Undoes a feedback's link: the link goes, and the vote it added with it (only that vote: one the
 * reporter cast themselves stays). Idempotent: an unlinked feedback stays as it is.
 */
export async function unlinkFeedback(db: Db, clock: Clock, workspaceId: string, submissionId: string): Promise<{ appId: string; changed: boolean }> {
  const sub = await db.kysely.selectFrom("submissions").select(["appId", "featureRequestId"]).where("id", "=", submissionId).where("workspaceId", "=", workspaceId).executeTakeFirst();
  if (sub === undefined) throw new ApiError("submission_not_found");
  if (sub.featureRequestId === null) return { appId: sub.appId, changed: false };
  const changed = await db.sharedTransaction(async (trx) => {
    const locked = await lockSubmission(trx, db.dialect, workspaceId, submissionId);
    await writeUnlink(trx, clock, db.dialect, locked);
    return locked.featureRequestId !== null;
  }, sub.featureRequestId);
  return { appId: sub.appId, changed };
}

/** The feedback linked to a request, newest link first. */
export async function linkedFeedback(db: Kysely<Database>, featureRequestId: string, limit: number): Promise<LinkedFeedback[]> {
  const rows = await db
    .selectFrom("submissions as s")
    .leftJoin("endUsers as eu", "eu.id", "s.endUserId")
    .select(["s.id", "s.title", "s.description", "s.reporterName", "s.reporterEmail", "eu.publicId", "s.linkedAt", "s.createdAt"])
    .where("s.featureRequestId", "=", featureRequestId)
    .orderBy("s.linkedAt", "desc")
    .orderBy("s.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    submissionId: r.id,
    title: r.title,
    quote: quoteOf(r.title, r.description),
    reporterName: r.reporterName,
    reporterEmail: r.reporterEmail,
    voterPublicId: r.publicId,
    linkedAt: r.linkedAt ?? r.createdAt,
    createdAt: r.createdAt,
  }));
}

/** The description's first {@link QUOTE_CHARS} characters (whole code points), or the title when there is none. */
export function quoteOf(title: string, description: string): string {
  const text = description.trim();
  if (text === "") return title;
  const chars = [...text];
  return chars.length <= QUOTE_CHARS ? text : `${chars.slice(0, QUOTE_CHARS).join("").trimEnd()}…`;
}
