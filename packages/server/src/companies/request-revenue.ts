import type { RequestCompany, RevenueByCurrency } from "@tidings/protocol";
import { sql, type Kysely, type RawBuilder } from "kysely";
import type { Database } from "../db/schema.js";

// A request's revenue counted by account: each company among its voters once, each paying voter
// without a company alone, never converted between currencies. Computed from the votes when
// read, as the paying voters' revenue is (`feature-requests/admin-records.ts`): no counter to
// keep in step, so votes, moves between companies and re-pricing are exact at once on both
// engines, whatever runs concurrently. Raw SQL over the request row `fr`, snake_case as stored,
// because the same expressions select, filter and sort.

/** Companies among the voters of `fr`. */
export const COMPANY_COUNT = sql<number>`(select count(distinct cu.company_id) from feature_request_votes cv join end_users cu on cu.id = cv.end_user_id where cv.feature_request_id = fr.id and cu.company_id is not null)`;

/**
 * The revenue of `fr` in one currency, in hundredths: its voting companies in that currency
 * (each once) plus its paying voters without a company whose MRR is in it.
 */
export function companyRevenueCents(currency: string): RawBuilder<number> {
  return sql<number>`((select coalesce(sum(c.mrr_cents), 0) from companies c where c.currency = ${currency} and c.id in (select ku.company_id from feature_request_votes kv join end_users ku on ku.id = kv.end_user_id where kv.feature_request_id = fr.id and ku.company_id is not null)) + (select coalesce(sum(su.mrr_cents), 0) from feature_request_votes sv join end_users su on su.id = sv.end_user_id where sv.feature_request_id = fr.id and su.company_id is null and su.is_paying = 1 and coalesce(su.currency, 'USD') = ${currency}))`;
}

/** True when a voter of `fr` is on `plan`: their company's, or their own when they have none. */
export function voterOnPlan(plan: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from feature_request_votes lv join end_users lu on lu.id = lv.end_user_id left join companies lc on lc.id = lu.company_id where lv.feature_request_id = fr.id and (lc.plan = ${plan} or (lu.company_id is null and lu.plan = ${plan})))`;
}

/** True when a user of `companyId` voted for `fr`. */
export function votedByCompany(companyId: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from feature_request_votes mv join end_users mu on mu.id = mv.end_user_id where mv.feature_request_id = fr.id and mu.company_id = ${companyId})`;
}

/**
 * The revenue of each request, per currency (largest first, then by code), in currency units.
 * Requests with no company and no paying voter with an MRR are absent from the map.
 *
 * @example
 * ```ts
 * (await revenueByCurrency(db, [id])).get(id); // [{ currency: "EUR", mrr: 1200.5 }, { currency: "USD", mrr: 49 }]
 * ```
 */
export async function revenueByCurrency(db: Kysely<Database>, requestIds: readonly string[]): Promise<Map<string, RevenueByCurrency>> {
  const result = new Map<string, RevenueByCurrency>();
  if (requestIds.length === 0) return result;
  const companies = db
    .selectFrom("featureRequestVotes as v")
    .innerJoin("endUsers as u", "u.id", "v.endUserId")
    .innerJoin("companies as c", "c.id", "u.companyId")
    .where("v.featureRequestId", "in", requestIds)
    .where("c.mrrCents", "is not", null)
    // One row per request and company, however many of its users voted.
    .select(["v.featureRequestId as requestId", "c.id as unitId", "c.currency", "c.mrrCents"])
    .distinct();
  const alone = db
    .selectFrom("featureRequestVotes as v")
    .innerJoin("endUsers as u", "u.id", "v.endUserId")
    .where("v.featureRequestId", "in", requestIds)
    .where("u.companyId", "is", null)
    .where("u.isPaying", "=", 1)
    .where("u.mrrCents", "is not", null)
    .select((eb) => ["v.featureRequestId as requestId", "u.id as unitId", eb.fn.coalesce("u.currency", sql<string>`'USD'`).as("currency"), "u.mrrCents"]);
  const rows = await db
    .selectFrom(companies.unionAll(alone).as("units"))
    .select((eb) => ["units.requestId", "units.currency", eb.fn.sum<number>("units.mrrCents").as("cents")])
    .groupBy(["units.requestId", "units.currency"])
    .execute();
  for (const row of rows) {
    const list = result.get(row.requestId) ?? [];
    list.push({ currency: row.currency, mrr: Number(row.cents) / 100 });
    result.set(row.requestId, list);
  }
  for (const list of result.values()) list.sort((a, b) => b.mrr - a.mrr || (a.currency < b.currency ? -1 : 1));
  return result;
}

/**
 * The companies among the voters of a request, with how many of their users voted, highest MRR
 * first (unknown MRR last; currencies are not converted), then by name.
 */
export async function requestCompanies(db: Kysely<Database>, requestId: string, limit: number): Promise<RequestCompany[]> {
  const rows = await db
    .selectFrom("featureRequestVotes as v")
    .innerJoin("endUsers as u", "u.id", "v.endUserId")
    .innerJoin("companies as c", "c.id", "u.companyId")
    .where("v.featureRequestId", "=", requestId)
    .groupBy(["c.id", "c.externalId", "c.name", "c.mrrCents", "c.currency", "c.plan"])
    .select((eb) => ["c.id", "c.externalId", "c.name", "c.mrrCents", "c.currency", "c.plan", eb.fn.countAll<number>().as("voters")])
    .orderBy((eb) => eb.fn.coalesce("c.mrrCents", eb.lit(-1)), "desc")
    .orderBy((eb) => eb.fn.coalesce("c.name", "c.externalId"))
    .orderBy("c.id")
    .limit(limit)
    .execute();
  return rows.map(({ mrrCents, voters, ...c }) => ({ ...c, mrr: mrrCents === null ? null : Number(mrrCents) / 100, voters: Number(voters) }));
}

/**
 * The names of the companies among each request's voters (the host's id when it reported no
 * name), highest MRR first, for exports.
 */
export async function companyNamesByRequest(db: Kysely<Database>, requestIds: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (requestIds.length === 0) return result;
  const rows = await db
    .selectFrom("featureRequestVotes as v")
    .innerJoin("endUsers as u", "u.id", "v.endUserId")
    .innerJoin("companies as c", "c.id", "u.companyId")
    .where("v.featureRequestId", "in", requestIds)
    // Grouped, not distinct: PostgreSQL sorts a distinct result only by what it selects.
    .groupBy(["v.featureRequestId", "c.id", "c.name", "c.externalId", "c.mrrCents"])
    .select((eb) => ["v.featureRequestId as requestId", "c.id", eb.fn.coalesce("c.name", "c.externalId").as("name")])
    .orderBy("v.featureRequestId")
    .orderBy((eb) => eb.fn.coalesce("c.mrrCents", eb.lit(-1)), "desc")
    .orderBy("name")
    .orderBy("c.id")
    .execute();
  for (const row of rows) result.set(row.requestId, [...(result.get(row.requestId) ?? []), row.name]);
  return result;
}

/** Revenue per currency as one line of text: `EUR 1200.5; USD 49`. */
export function revenueText(revenue: RevenueByCurrency): string {
  return revenue.map((r) => `${r.currency} ${r.mrr}`).join("; ");
}
