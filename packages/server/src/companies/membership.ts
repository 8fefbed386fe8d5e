import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";
import type { CompanyReport } from "./company-report.js";

/**
 * Writes what the host reported about an end user's company, in the caller's transaction: the
 * company is created or updated (only the fields the report carries), and the user joins it, or
 * leaves theirs when `report` is null. `reportedAt` (epoch seconds of the signature or of the
 * SSO token's `iat`) orders reports: one older than what the company, or the user's membership,
 * was last written from changes neither, so a token a page still holds cannot undo a newer
 * signed report. Callers hold the end user's row first (see `ensureEndUser`), then this takes
 * the company's.
 *
 * @example
 * ```ts
 * await reportCompany(trx, clock, appId, endUser.id, { externalId: "acct_42", name: "Acme", mrrCents: 120000 }, 1_700_000_000);
 * ```
 */
export async function reportCompany(
  trx: Kysely<Database>,
  clock: Clock,
  appId: string,
  endUserId: string,
  report: CompanyReport | null,
  reportedAt: number,
): Promise<void> {
  const companyId = report === null ? null : await upsertCompany(trx, clock, appId, report, reportedAt);
  await trx
    .updateTable("endUsers")
    .set({ companyId, companyReportedAt: reportedAt })
    .where("id", "=", endUserId)
    .where((eb) => eb.or([eb("companyReportedAt", "is", null), eb("companyReportedAt", "<=", reportedAt)]))
    .execute();
}

async function upsertCompany(trx: Kysely<Database>, clock: Clock, appId: string, report: CompanyReport, reportedAt: number): Promise<string> {
  const now = isoNow(clock);
  const inserted = await trx
    .insertInto("companies")
    .values({
      id: newId("co", clock.now()),
      appId,
      externalId: report.externalId,
      name: report.name ?? null,
      mrrCents: report.mrrCents ?? null,
      // USD only for a new company that names no currency, as for end users.
      currency: report.currency ?? "USD",
      plan: report.plan ?? null,
      attributes: report.attributes ?? "{}",
      reportedAt,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict((oc) =>
      oc
        .columns(["appId", "externalId"])
        .doUpdateSet((eb) => ({
          ...(report.name === undefined ? {} : { name: eb.ref("excluded.name") }),
          ...(report.mrrCents === undefined ? {} : { mrrCents: eb.ref("excluded.mrrCents") }),
          ...(report.currency === undefined ? {} : { currency: eb.ref("excluded.currency") }),
          ...(report.plan === undefined ? {} : { plan: eb.ref("excluded.plan") }),
          ...(report.attributes === undefined ? {} : { attributes: eb.ref("excluded.attributes") }),
          reportedAt: eb.ref("excluded.reportedAt"),
          updatedAt: eb.ref("excluded.updatedAt"),
        }))
        .where("companies.reportedAt", "<=", reportedAt),
    )
    .returning("id")
    .executeTakeFirst();
  if (inserted !== undefined) return inserted.id;
  // The company was written from a newer report: it stays as it is, the user still joins it.
  const existing = await trx.selectFrom("companies").select("id").where("appId", "=", appId).where("externalId", "=", report.externalId).executeTakeFirstOrThrow();
  return existing.id;
}
