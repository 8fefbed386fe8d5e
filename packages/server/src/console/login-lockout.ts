import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";

/** Failed sign-ins for one email within {@link FAILURE_WINDOW_MS} that lock it. */
export const MAX_LOGIN_FAILURES = 5;
/** How far back failures count. */
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** How long a locked email is refused, whatever the password. */
export const LOCKOUT_MS = 15 * 60 * 1000;

/**
 * Throws 429 `rate_limited` with `Retry-After` while `email` is locked. Checked before the
 * password, so a locked account cannot be probed even with the right password.
 */
export async function assertNotLocked(ctx: Context, email: string): Promise<void> {
  const row = await ctx.db.kysely.selectFrom("consoleLoginFailures").select("lockedUntil").where("email", "=", email).executeTakeFirst();
  if (row?.lockedUntil == null) return;
  const left = Date.parse(row.lockedUntil) - ctx.clock.now().getTime();
  if (left <= 0) return;
  throw new ApiError("rate_limited", {
    message: "Too many failed sign-ins for this account. Try again later.",
    headers: { "Retry-After": String(Math.ceil(left / 1000)) },
  });
}

/** Counts one failed sign-in for `email`; the {@link MAX_LOGIN_FAILURES}-th in the window locks it. */
export async function recordLoginFailure(ctx: Context, email: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("consoleLoginFailures").selectAll().where("email", "=", email).executeTakeFirst();
    const fresh =
      row === undefined ||
      now.getTime() - Date.parse(row.firstFailedAt) > FAILURE_WINDOW_MS ||
      (row.lockedUntil !== null && Date.parse(row.lockedUntil) <= now.getTime());
    const failures = fresh ? 1 : row.failures + 1;
    const firstFailedAt = fresh ? now.toISOString() : row.firstFailedAt;
    const lockedUntil = failures >= MAX_LOGIN_FAILURES ? new Date(now.getTime() + LOCKOUT_MS).toISOString() : null;
    if (row === undefined) {
      // A concurrent first failure may have inserted the row; losing one count then is harmless.
      await trx
        .insertInto("consoleLoginFailures")
        .values({ email, failures, firstFailedAt, lockedUntil })
        .onConflict((oc) => oc.column("email").doNothing())
        .execute();
    } else {
      await trx.updateTable("consoleLoginFailures").set({ failures, firstFailedAt, lockedUntil }).where("email", "=", email).execute();
    }
  });
}

/** Forgets the failures of `email` after a successful sign-in. */
export async function clearLoginFailures(ctx: Context, email: string): Promise<void> {
  await ctx.db.kysely.deleteFrom("consoleLoginFailures").where("email", "=", email).execute();
}
