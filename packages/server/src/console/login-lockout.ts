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

/**
 * Counts one failed sign-in for `email`; the {@link MAX_LOGIN_FAILURES}-th in the window locks it.
 * One upsert that reads the stored count as it writes it, so concurrent failures (a guessing
 * burst) each count: PostgreSQL applies them one after another on the row, SQLite has one writer.
 */
export async function recordLoginFailure(ctx: Context, email: string): Promise<void> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - FAILURE_WINDOW_MS).toISOString();
  const lockedUntil = new Date(now.getTime() + LOCKOUT_MS).toISOString();
  await ctx.db.kysely
    .insertInto("consoleLoginFailures")
    .values({ email, failures: 1, firstFailedAt: at, lockedUntil: MAX_LOGIN_FAILURES <= 1 ? lockedUntil : null })
    .onConflict((oc) =>
      oc.column("email").doUpdateSet((eb) => {
        // A new count starts once the window has passed or an earlier lock has run out.
        const fresh = eb.or([
          eb("consoleLoginFailures.firstFailedAt", "<", windowStart),
          eb.and([eb("consoleLoginFailures.lockedUntil", "is not", null), eb("consoleLoginFailures.lockedUntil", "<=", at)]),
        ]);
        const failures = eb.case().when(fresh).then(1).else(eb("consoleLoginFailures.failures", "+", 1)).end();
        return {
          failures,
          firstFailedAt: eb.case().when(fresh).then(at).else(eb.ref("consoleLoginFailures.firstFailedAt")).end(),
          lockedUntil: eb.case().when(failures, ">=", MAX_LOGIN_FAILURES).then(lockedUntil).else(null).end(),
        };
      }),
    )
    .execute();
}

/** Forgets the failures of `email` after a successful sign-in. */
export async function clearLoginFailures(ctx: Context, email: string): Promise<void> {
  await ctx.db.kysely.deleteFrom("consoleLoginFailures").where("email", "=", email).execute();
}
