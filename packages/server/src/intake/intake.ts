import type { Kysely } from "kysely";
import type { AppRow } from "../apps/app-row.js";
import type { Context } from "../context.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { requireQuotaLeft, takeSubmissionSlot, usageMonth } from "./quota.js";
import { requireOpenSubscription } from "./subscription.js";
import { markTokenUsed, pruneUsedTokens } from "./used-tokens.js";
import { verificationRefusal, verifyHuman, type IntakeAction } from "./verification.js";

export type { IntakeAction } from "./verification.js";

/** A submission that passed {@link checkIntake}; it still has to be committed with the write. */
export interface IntakePass {
  /**
   * Inside the write transaction: records the verification token as used and takes one quota
   * slot (throws ApiError 402 `tier_limit_submissions` when the last slot went to someone else,
   * 403 `verification_required` when a concurrent submission spent the same token first).
   */
  commit(trx: Kysely<Database>): Promise<void>;
  /**
   * What a single statement storing the submission takes in place of {@link commit}: the
   * workspace's quota slot of this month (see `slotUpsert`), and whether the workspace had no
   * quota when its terms were read. Undefined when a verification token is to be recorded too:
   * then only `commit` will do.
   */
  slot(): { workspaceId: string; month: string; unlimited: boolean } | undefined;
}

/**
 * The intake guard of POST /api/v1/feedback and POST /api/v1/feature-requests, after the
 * endpoint has checked the app, the anonymous flag and the body: human verification (403; an
 * `identified` caller passes without a token where the app trusts identified users),
 * subscription (402 `subscription_inactive`) and an early quota check (402
 * `tier_limit_submissions`). Writes nothing; call `commit` inside the transaction that stores
 * the submission, so a refused or rolled-back write spends neither the token nor the quota.
 *
 * @example
 * ```ts
 * const pass = await checkIntake(ctx, app, { verificationToken: body.turnstileToken, identified: identity.identified, action: "feedback", remoteIp: request.ip });
 * await ctx.db.kysely.transaction().execute(async (trx) => {
 *   await insertFeedback(trx, body);
 *   await pass.commit(trx);
 * });
 * ```
 */
export async function checkIntake(
  ctx: Context,
  app: AppRow,
  input: { verificationToken: string | undefined; identified: boolean; action: IntakeAction; remoteIp: string },
): Promise<IntakePass> {
  const db = ctx.db.kysely;
  await pruneUsedTokens(db, ctx.clock);
  const verified = await verifyHuman(ctx, app, input);
  const workspace = await workspaceTerms.first(db, { id: app.workspaceId });
  if (workspace === undefined) throw new Error(`intake: workspace ${app.workspaceId} of app ${app.id} is missing`);
  requireOpenSubscription(workspace.subscriptionStatus);
  await requireQuotaLeft(db, workspace, usageMonth(ctx.clock));
  return {
    async commit(trx) {
      if (verified !== null && !(await markTokenUsed(trx, verified))) throw verificationRefusal(verified.provider);
      // The month is read at commit time: a submission written just after midnight UTC counts there.
      await takeSubmissionSlot(trx, workspace.id, usageMonth(ctx.clock));
    },
    slot: () => (verified === null ? { workspaceId: workspace.id, month: usageMonth(ctx.clock), unlimited: workspace.monthlySubmissionQuota === null } : undefined),
  };
}

/** The workspace's subscription and quota, read on every submission: prepared (on PostgreSQL a named statement). */
const workspaceTerms = preparedQuery<{ id: string }, { id: string; subscriptionStatus: string; monthlySubmissionQuota: number | null }>((db, p) =>
  db.selectFrom("workspaces").select(["id", "subscriptionStatus", "monthlySubmissionQuota"]).where("id", "=", p.id),
);
