import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { Database, RequestNoticeKind } from "../db/schema.js";
import { newId } from "../ids.js";
import { enqueueJobs, type NewJob } from "../jobs/queue.js";

/** Followers hear at most once per clock hour: every update of an hour goes out in one mail when it ends. */
export const DIGEST_WINDOW_MS = 60 * 60_000;

/** The job kind that turns an address's pending notices into one mail. */
export const DIGEST_JOB = "request-digest";

/** What a digest job carries. */
export interface DigestJobPayload {
  appId: string;
  email: string;
}

/** The end of the digest window `at` falls in, when its digest runs. */
export function digestDueAt(at: Date): Date {
  return new Date((Math.floor(at.getTime() / DIGEST_WINDOW_MS) + 1) * DIGEST_WINDOW_MS);
}

/**
 * Records an update of a request for each of its confirmed followers, in the caller's
 * transaction (the write that made the update), and queues one digest per follower for the end
 * of the current hour; a digest already queued for that hour takes the new notice too.
 * `key` names the update: a follower is told about one key once (a request ships once, however
 * many paths lead there). Answers how many notices were written.
 *
 * @example
 * ```ts
 * await queueRequestNotices(trx, clock, { appId, featureRequestId, kind: "moved", key: `evt:${eventId}`, data: { toColumn: "Planned" } });
 * ```
 */
export async function queueRequestNotices(
  trx: Kysely<Database>,
  clock: Clock,
  notice: { appId: string; featureRequestId: string; kind: RequestNoticeKind; key: string; data: Record<string, unknown> },
): Promise<number> {
  const followers = await trx
    .selectFrom("emailSubscriptions")
    .select(["id", "email"])
    .where("appId", "=", notice.appId)
    .where("kind", "=", "request")
    .where("featureRequestId", "=", notice.featureRequestId)
    .where("status", "=", "confirmed")
    .orderBy("id")
    .execute();
  if (followers.length === 0) return 0;
  const now = clock.now();
  const due = digestDueAt(now);
  const jobs: NewJob[] = [];
  let written = 0;
  for (const follower of followers) {
    const inserted = await trx
      .insertInto("requestUpdateNotices")
      .values({
        id: newId("rn", now),
        appId: notice.appId,
        subscriptionId: follower.id,
        email: follower.email,
        featureRequestId: notice.featureRequestId,
        kind: notice.kind,
        data: JSON.stringify(notice.data),
        dedupeKey: `${notice.key}:${follower.id}`,
        createdAt: now.toISOString(),
        sentAt: null,
      })
      .onConflict((oc) => oc.column("dedupeKey").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) continue;
    written++;
    const payload: DigestJobPayload = { appId: notice.appId, email: follower.email };
    jobs.push({ kind: DIGEST_JOB, refId: notice.appId, dedupeKey: `${DIGEST_JOB}:${notice.appId}:${follower.email}:${due.toISOString()}`, payload, runAt: due });
  }
  await enqueueJobs(trx, clock, jobs);
  return written;
}

/**
 * The notices a request event means for its followers: a move (with the column's name) or the
 * first shipping. Other events tell followers nothing.
 */
export async function noticesForEvent(
  trx: Kysely<Database>,
  clock: Clock,
  event: { id: string; featureRequestId: string; appId: string; type: string; data: Record<string, unknown> },
): Promise<void> {
  if (event.type === "moved") {
    const columnId = typeof event.data.toColumnId === "string" ? event.data.toColumnId : null;
    const column = columnId === null ? undefined : await trx.selectFrom("boardColumns").select("name").where("id", "=", columnId).executeTakeFirst();
    await queueRequestNotices(trx, clock, {
      appId: event.appId,
      featureRequestId: event.featureRequestId,
      kind: "moved",
      key: `evt:${event.id}`,
      data: { toColumn: column?.name ?? null },
    });
  } else if (event.type === "shipped") {
    await queueRequestNotices(trx, clock, { appId: event.appId, featureRequestId: event.featureRequestId, kind: "shipped", key: "shipped", data: {} });
  }
}
