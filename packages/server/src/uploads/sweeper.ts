import type { FastifyBaseLogger } from "fastify";
import type { Context } from "../context.js";

/** Uploads not attached to a submission within this long are deleted. */
export const UNATTACHED_UPLOAD_TTL_MS = 24 * 60 * 60_000;
/** How often a running server sweeps. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;
const BATCH = 500;

/**
 * Deletes uploads (rows and stored files) that no submission took within
 * {@link UNATTACHED_UPLOAD_TTL_MS} of their creation, and upload sessions expired as long ago.
 * Each row is deleted only if still unattached, so a submission attaching it concurrently wins.
 * Answers how many uploads went.
 *
 * @example
 * ```ts
 * await sweepUnattachedUploads(ctx); // 3
 * ```
 */
export async function sweepUnattachedUploads(ctx: Context): Promise<number> {
  const db = ctx.db.kysely;
  const cutoff = new Date(ctx.clock.now().getTime() - UNATTACHED_UPLOAD_TTL_MS).toISOString();
  let swept = 0;
  for (;;) {
    const stale = await db
      .selectFrom("uploads")
      .select(["id", "storageKey"])
      .where("submissionId", "is", null)
      .where("createdAt", "<", cutoff)
      .orderBy("createdAt")
      .limit(BATCH)
      .execute();
    for (const upload of stale) {
      const deleted = await db.deleteFrom("uploads").where("id", "=", upload.id).where("submissionId", "is", null).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) continue;
      await ctx.storage.delete(upload.storageKey);
      swept++;
    }
    if (stale.length < BATCH) break;
  }
  await db.deleteFrom("uploadSessions").where("expiresAt", "<", cutoff).execute();
  return swept;
}

/**
 * Runs {@link sweepUnattachedUploads} every `intervalMs` until the returned stop function is
 * called. The timer does not keep the process alive; a failed sweep is logged and retried on the
 * next tick; sweeps never overlap.
 */
export function startUploadSweeper(ctx: Context, log: FastifyBaseLogger, intervalMs = SWEEP_INTERVAL_MS): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running !== undefined) return;
    running = sweepUnattachedUploads(ctx)
      .then((swept) => {
        if (swept > 0) log.info({ swept }, "deleted unattached uploads");
      })
      .catch((error: unknown) => log.error({ err: error }, "upload sweep failed"))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
