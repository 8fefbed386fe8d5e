import type { ErrorBody } from "@tidings/protocol";
import type { AppRow } from "../../server/src/apps/app-row.js";
import { findAppByKey } from "../../server/src/apps/app-keys.js";
import type { Context } from "../../server/src/context.js";
import { ApiError } from "../../server/src/http/errors.js";
import { checkIntake, type IntakeAction } from "../../server/src/intake/intake.js";

/** The stored row of the app with `appKey` (read fresh, never from the shared cache). */
export async function appRowOf(ctx: Context, appKey: string): Promise<AppRow> {
  const found = await findAppByKey(ctx.db.kysely, appKey);
  if (found === undefined) throw new Error(`no app ${appKey}`);
  return found.app;
}

/**
 * Runs a submission through the intake guard the way an endpoint does: `checkIntake`, then
 * `commit` in a write transaction. Answers 201, or the status and body of the refusal.
 */
export async function submitThroughGuard(
  ctx: Context,
  appKey: string,
  input: { verificationToken?: string; identified?: boolean; action?: IntakeAction; remoteIp?: string } = {},
): Promise<{ status: number; body: ErrorBody | null }> {
  try {
    const pass = await checkIntake(ctx, await appRowOf(ctx, appKey), {
      verificationToken: input.verificationToken,
      identified: input.identified ?? false,
      action: input.action ?? "feedback",
      remoteIp: input.remoteIp ?? "203.0.113.7",
    });
    await ctx.db.kysely.transaction().execute((trx) => pass.commit(trx));
    return { status: 201, body: null };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body() };
    throw error;
  }
}
