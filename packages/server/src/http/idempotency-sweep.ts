import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";

type Db = Kysely<Database>;

/**
 * Deletes keys past their expiry; answers how many went. Expired rows are already ignored when a
 * key comes again: this only keeps the table small.
 *
 * @example
 * ```ts
 * await sweepIdempotencyKeys(db, clock); // 12
 * ```
 */
export async function sweepIdempotencyKeys(db: Db, clock: Clock): Promise<number> {
  const result = await db.deleteFrom("idempotencyKeys").where("expiresAt", "<=", clock.now().toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * A background-job step that runs {@link sweepIdempotencyKeys} at most once per `intervalMs` of
 * the context's clock (the job runner ticks every few seconds).
 *
 * @example
 * ```ts
 * jobs.step(idempotencySweep());
 * ```
 */
export function idempotencySweep(intervalMs = 10 * 60_000): (ctx: Context) => Promise<void> {
  let next = Number.NEGATIVE_INFINITY;
  return async (ctx) => {
    const now = ctx.clock.now().getTime();
    if (now < next) return;
    next = now + intervalMs;
    await sweepIdempotencyKeys(ctx.db.kysely, ctx.clock);
  };
}
