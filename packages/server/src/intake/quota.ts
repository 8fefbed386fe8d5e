import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";

/**
 * The usage month of an instant: its UTC calendar month, so every instance and both engines agree.
 *
 * @example
 * ```ts
 * usageMonth(new FakeClock("2026-03-31T23:59:59Z")); // "2026-03"
 * ```
 */
export function usageMonth(clock: Clock): string {
  return clock.now().toISOString().slice(0, 7);
}

/** Submissions a workspace made in `month` (0 before its first). */
export async function monthlySubmissions(db: Kysely<Database>, workspaceId: string, month: string): Promise<number> {
  const row = await db
    .selectFrom("workspaceUsage")
    .select("submissions")
    .where("workspaceId", "=", workspaceId)
    .where("month", "=", month)
    .executeTakeFirst();
  return row?.submissions ?? 0;
}

/**
 * Throws 402 `tier_limit_submissions` when the quota is already used up: an early answer that
 * spares the caller validation work; {@link takeSubmissionSlot} is what enforces the quota.
 */
export async function requireQuotaLeft(
  db: Kysely<Database>,
  workspace: { id: string; monthlySubmissionQuota: number | null },
  month: string,
): Promise<void> {
  if (workspace.monthlySubmissionQuota === null) return;
  if ((await monthlySubmissions(db, workspace.id, month)) >= workspace.monthlySubmissionQuota) {
    throw new ApiError("tier_limit_submissions");
  }
}

/**
 * Counts one submission against the workspace's quota inside the caller's transaction, or throws
 * 402 `tier_limit_submissions`. The guarded increment is one statement, so concurrent submissions
 * never overshoot: PostgreSQL re-checks the condition after waiting for the row lock, SQLite has
 * one writer. The quota is read in the same statement, so a change by the operator applies at once.
 *
 * @example
 * ```ts
 * await db.transaction().execute(async (trx) => { await insertFeedback(trx); await takeSubmissionSlot(trx, wsId, usageMonth(clock)); });
 * ```
 */
export async function takeSubmissionSlot(trx: Kysely<Database>, workspaceId: string, month: string): Promise<void> {
  await trx
    .insertInto("workspaceUsage")
    .values({ workspaceId, month, submissions: 0 })
    .onConflict((oc) => oc.columns(["workspaceId", "month"]).doNothing())
    .execute();
  const result = await trx
    .updateTable("workspaceUsage")
    .set((eb) => ({ submissions: eb("submissions", "+", 1) }))
    .where("workspaceId", "=", workspaceId)
    .where("month", "=", month)
    .where((eb) => {
      const quota = eb.selectFrom("workspaces").select("monthlySubmissionQuota").where("id", "=", workspaceId);
      return eb.or([eb(quota, "is", null), eb("submissions", "<", quota)]);
    })
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new ApiError("tier_limit_submissions");
}
