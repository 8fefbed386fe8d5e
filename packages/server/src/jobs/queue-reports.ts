import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

/** Counts of the jobs of one reference (a release's blast), by outcome, and the latest error. */
export async function jobProgress(
  db: Kysely<Database>,
  refId: string,
): Promise<{ total: number; sent: number; pending: number; failed: number; lastError: string | null }> {
  const rows = await db
    .selectFrom("jobs")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.max("lastError").as("lastError")])
    .where("refId", "=", refId)
    .groupBy("status")
    .execute();
  const progress = { total: 0, sent: 0, pending: 0, failed: 0, lastError: null as string | null };
  for (const row of rows) {
    const n = Number(row.n);
    progress.total += n;
    if (row.status === "done") progress.sent += n;
    else if (row.status === "failed") progress.failed += n;
    else progress.pending += n;
    if (row.lastError !== null && row.status !== "done") progress.lastError = row.lastError;
  }
  return progress;
}

/** Unfinished jobs of one kind: how many, and when the oldest of them was queued. */
export interface QueueDepth {
  kind: string;
  /** Pending (due or waiting for a retry) and running jobs. */
  queued: number;
  /** ISO time the oldest of them was enqueued. */
  oldestCreatedAt: string;
}

/**
 * The unfinished jobs by kind (read through the `status` index), for the metrics scrape.
 *
 * @example
 * ```ts
 * await queueDepth(db); // [{ kind: "mail", queued: 3, oldestCreatedAt: "2026-01-05T10:00:00.000Z" }]
 * ```
 */
export async function queueDepth(db: Kysely<Database>): Promise<QueueDepth[]> {
  const rows = await db
    .selectFrom("jobs")
    .select(["kind", (eb) => eb.fn.countAll<number>().as("queued"), (eb) => eb.fn.min("createdAt").as("oldestCreatedAt")])
    .where("status", "in", ["pending", "running"])
    .groupBy("kind")
    .orderBy("kind")
    .execute();
  return rows.map((row) => ({ kind: row.kind, queued: Number(row.queued), oldestCreatedAt: row.oldestCreatedAt }));
}
