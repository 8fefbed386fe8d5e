import { sql, type Expression, type Kysely, type SqlBool } from "kysely";
import type { Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { preparedQuery } from "../db/prepared-query.js";
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

/** Submissions a workspace made in `month` (0 before its first): its usage row and its spread rows. */
export async function monthlySubmissions(db: Kysely<Database>, workspaceId: string, month: string): Promise<number> {
  const row = await db
    .selectNoFrom([
      db.selectFrom("workspaceUsage").select("submissions").where("workspaceId", "=", workspaceId).where("month", "=", month).as("kept"),
      spreadCount(db, workspaceId, month).as("spread"),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.kept ?? 0) + Number(row.spread);
}

/** The month's submissions counted in the spread rows (see {@link spreadSlot}). */
function spreadCount(db: Kysely<Database>, workspaceId: string, month: string) {
  return db
    .selectFrom("workspaceUsageSpread")
    .select(sql<number>`coalesce(sum(submissions), 0)`.as("n"))
    .where("workspaceId", "=", workspaceId)
    .where("month", "=", month);
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
 * 402 `tier_limit_submissions`. The guarded increment is one statement (the month's first
 * submission inserts the row, every later one updates it), so concurrent submissions never
 * overshoot: PostgreSQL re-checks the update's condition on the row's latest version after
 * waiting for its lock, SQLite has one writer. The quota is read in the same statement, so a
 * change by the operator applies at once.
 *
 * @example
 * ```ts
 * await db.transaction().execute(async (trx) => { await insertFeedback(trx); await takeSubmissionSlot(trx, wsId, usageMonth(clock)); });
 * ```
 */
export async function takeSubmissionSlot(trx: Kysely<Database>, workspaceId: string, month: string): Promise<void> {
  const result = await takeSlot.execute(trx, { workspaceId, month });
  if (Number(result.numAffectedRows ?? 0) === 0) throw new ApiError("tier_limit_submissions");
}

/**
 * `insert … select … where <room> on conflict do update … where <room>`: a row is written only
 * while the quota (read from the workspace) is unset or above the month's count. The SELECT keeps
 * its WHERE clause, which SQLite needs to parse an upsert from a SELECT. `gate`, when given, is
 * one more condition of the SELECT: false, nothing is written (a statement that writes a
 * submission with its slot takes the slot only if it will write the rest).
 *
 * @example
 * ```ts
 * await slotUpsert(db, workspaceId, "2026-11").execute();
 * ```
 */
export function slotUpsert(db: Kysely<Database>, workspaceId: string, month: string, gate?: Expression<SqlBool>) {
  const quota = () => db.selectFrom("workspaces").select("monthlySubmissionQuota").where("id", "=", workspaceId);
  // The spread rows grow only while the workspace has no quota (see `spreadSlot`), so once it
  // has one, the statement's snapshot of them is exact.
  const spread = () => spreadCount(db, workspaceId, month);
  return db
    .insertInto("workspaceUsage")
    .columns(["workspaceId", "month", "submissions"])
    .expression(
      db
        .selectNoFrom((eb) => [eb.val(workspaceId).as("workspaceId"), eb.val(month).as("month"), sql<number>`1`.as("submissions")])
        .where((eb) => {
          const room = eb.or([eb(quota(), "is", null), eb(quota(), ">", spread())]);
          return gate === undefined ? room : eb.and([room, gate]);
        }),
    )
    .onConflict((oc) =>
      oc
        .columns(["workspaceId", "month"])
        .doUpdateSet((eb) => ({ submissions: eb("workspaceUsage.submissions", "+", 1) }))
        .where((eb) => eb.or([eb(quota(), "is", null), eb(eb("workspaceUsage.submissions", "+", spread()), "<", quota())])),
    );
}

/**
 * One submission counted in spread row `shard` of the month (migration 0043), when `gate` holds:
 * for a workspace without a quota, whose submissions need not wait for each other's lock on one
 * row. Nothing checks a limit here: the caller must have made sure in the same statement that
 * the workspace has no quota.
 */
export function spreadSlot(db: Kysely<Database>, workspaceId: string, month: string, shard: number, gate: Expression<SqlBool>) {
  return db
    .insertInto("workspaceUsageSpread")
    .columns(["workspaceId", "month", "shard", "submissions"])
    .expression(
      db
        .selectNoFrom((eb) => [eb.val(workspaceId).as("workspaceId"), eb.val(month).as("month"), sql<number>`cast(${shard} as integer)`.as("shard"), sql<number>`1`.as("submissions")])
        .where(gate),
    )
    .onConflict((oc) => oc.columns(["workspaceId", "month", "shard"]).doUpdateSet((eb) => ({ submissions: eb("workspaceUsageSpread.submissions", "+", 1) })));
}

const takeSlot = preparedQuery<{ workspaceId: string; month: string }, never>((db, p) => slotUpsert(db, p.workspaceId, p.month));
