import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { CompanyReport } from "../companies/company-report.js";
import { reportCompany } from "../companies/membership.js";
import type { Database } from "../db/schema.js";
import { ensureEndUser } from "./identity.js";

/** Attribute values as validated from the request; undefined leaves the stored value alone. */
export interface AttributeWrite {
  isPaying?: boolean | undefined;
  plan?: string | null | undefined;
  mrr?: number | null | undefined;
  currency?: string | undefined;
  /** The user's company (null: they leave theirs), as of `reportedAt` (epoch seconds). */
  company?: { report: CompanyReport | null; reportedAt: number } | undefined;
}

/** SHA-256 hex of an end-user token, as `end_users.token_hash` and subscriptions store it. */
export function hashUserToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Stores reported attributes on the end user of `token`, minting it if new, in the caller's
 * transaction. MRR is kept in cents; the currency is upper-cased and defaults to USD only the
 * first time attributes are written, so a later write without it keeps the stored one. A
 * company report goes through `reportCompany` after the user's own attributes.
 */
export async function writeAttributes(
  trx: Kysely<Database>,
  clock: Clock,
  appId: string,
  token: string,
  write: AttributeWrite,
): Promise<{ updatedAt: string }> {
  const user = await ensureEndUser(trx, clock, appId, token);
  const current = await trx.selectFrom("endUsers").select(["currency"]).where("id", "=", user.id).executeTakeFirstOrThrow();
  const updatedAt = isoNow(clock);
  const currency = write.currency?.toUpperCase() ?? (current.currency === null ? "USD" : undefined);
  await trx
    .updateTable("endUsers")
    .set({
      ...(write.isPaying === undefined ? {} : { isPaying: write.isPaying ? 1 : 0 }),
      ...(write.plan === undefined ? {} : { plan: write.plan }),
      ...(write.mrr === undefined ? {} : { mrrCents: write.mrr === null ? null : Math.round(write.mrr * 100) }),
      ...(currency === undefined ? {} : { currency }),
      attributesUpdatedAt: updatedAt,
      lastSeenAt: updatedAt,
    })
    .where("id", "=", user.id)
    .execute();
  if (write.company !== undefined) await reportCompany(trx, clock, appId, user.id, write.company.report, write.company.reportedAt);
  return { updatedAt };
}
