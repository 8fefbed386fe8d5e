import type { AdminFeatureRequest, AdminFeatureRequestSort, ModerationState, SegmentRule } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { ruleCondition } from "../segments/rule.js";
import { searchText } from "../search/search-text.js";
import { tagsOf } from "../tags/request-tags.js";
import { fieldCondition, type FieldFilter } from "../custom-fields/filters.js";
import { recordFieldsOf } from "../custom-fields/record-fields.js";
import { COMPANY_COUNT, companyRevenueCents, revenueByCurrency, votedByCompany, voterOnPlan } from "../companies/request-revenue.js";
import { inWorkspace, PAYING_VOTERS, recordQuery, REVENUE_CENTS, SUBMITTER_PAYING, toAdminFeatureRequest } from "./admin-records.js";
import { hasEveryTag } from "./listed.js";

/** Filters and order of the console list. */
export interface AdminListQuery {
  workspaceId: string;
  /** Already checked to be an app of the workspace. */
  appId: string | undefined;
  limit: number;
  offset: number;
  q: string | undefined;
  columnId: string | undefined;
  versionId: string | undefined;
  boardId: string | undefined;
  /** Every one of these tags must be on the request. */
  tagIds: readonly string[];
  /** Every one of these custom field filters must match (fields of `appId`). */
  fieldFilters: readonly FieldFilter[];
  moderation: ModerationState | undefined;
  sort: AdminFeatureRequestSort;
  payerOnly: boolean;
  includeMerged: boolean;
  /** ISO 4217, upper case: what `company_revenue` and `minCompanyRevenueCents` count in. */
  currency: string;
  minCompanyRevenueCents: number | undefined;
  minCompanies: number | undefined;
  plan: string | undefined;
  /** Already checked to be a company of the workspace. */
  companyId: string | undefined;
  /** Requests with at least one voter the segment (of the workspace, already found) holds. */
  segment?: { appId: string; rule: SegmentRule } | undefined;
}

/**
 * One page of a workspace's requests for triage. `total` counts every filter; `pendingTotal`
 * counts the requests awaiting moderation in the same app scope, whatever the other filters.
 */
export async function listAdminFeatureRequests(
  db: Kysely<Database>,
  query: AdminListQuery,
): Promise<{ requests: AdminFeatureRequest[]; total: number; pendingTotal: number }> {
  let scope = inWorkspace(db, query.workspaceId);
  if (query.appId !== undefined) scope = scope.where("fr.appId", "=", query.appId);
  if (!query.includeMerged) scope = scope.where("fr.mergedIntoId", "is", null);

  let filtered = scope;
  if (query.moderation !== undefined) filtered = filtered.where("fr.moderation", "=", query.moderation);
  if (query.columnId !== undefined) filtered = filtered.where("fr.columnId", "=", query.columnId);
  if (query.versionId !== undefined) filtered = filtered.where("fr.versionId", "=", query.versionId);
  if (query.boardId !== undefined) filtered = filtered.where("fr.boardId", "=", query.boardId);
  for (const tagged of hasEveryTag(query.tagIds)) filtered = filtered.where(tagged);
  for (const filter of query.fieldFilters) filtered = filtered.where(fieldCondition(db, "fr.custom_fields", filter));
  // The search columns are already lower-cased, accent-free and hold only letters, digits and
  // spaces, so the needle needs no LIKE escaping and both engines compare alike.
  const needle = searchText(query.q ?? "");
  if (needle !== "") {
    filtered = filtered.where((eb) => eb.or([eb("fr.searchTitle", "like", `%${needle}%`), eb("fr.searchBody", "like", `%${needle}%`)]));
  }
  if (query.payerOnly) filtered = filtered.where((eb) => eb.or([eb(PAYING_VOTERS, ">", 0), eb(SUBMITTER_PAYING, ">", 0)]));
  if (query.minCompanyRevenueCents !== undefined) filtered = filtered.where((eb) => eb(companyRevenueCents(query.currency), ">=", query.minCompanyRevenueCents!));
  if (query.minCompanies !== undefined) filtered = filtered.where((eb) => eb(COMPANY_COUNT, ">=", query.minCompanies!));
  if (query.plan !== undefined) filtered = filtered.where(voterOnPlan(query.plan));
  if (query.companyId !== undefined) filtered = filtered.where(votedByCompany(query.companyId));
  if (query.segment !== undefined) {
    const members = db.selectFrom("endUsers as u").select("u.id").where(ruleCondition(db, query.segment.appId, query.segment.rule));
    filtered = filtered.where((eb) =>
      eb.exists(eb.selectFrom("featureRequestVotes as sv").select("sv.endUserId").whereRef("sv.featureRequestId", "=", "fr.id").where("sv.endUserId", "in", members)),
    );
  }

  const count = (q: typeof scope) => q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const [{ n: total }, { n: pendingTotal }] = await Promise.all([count(filtered), count(scope.where("fr.moderation", "=", "pending"))]);

  const ids = filtered.select("fr.id");
  let page = recordQuery(db, query.workspaceId).where("fr.id", "in", ids);
  if (query.sort === "votes") page = page.orderBy("fr.voteCount", "desc");
  if (query.sort === "revenue") page = page.orderBy(REVENUE_CENTS, "desc").orderBy("fr.voteCount", "desc");
  if (query.sort === "paying_voters") page = page.orderBy(PAYING_VOTERS, "desc").orderBy("fr.voteCount", "desc");
  if (query.sort === "company_revenue") page = page.orderBy(companyRevenueCents(query.currency), "desc").orderBy(COMPANY_COUNT, "desc").orderBy("fr.voteCount", "desc");
  if (query.sort === "company_count") page = page.orderBy(COMPANY_COUNT, "desc").orderBy("fr.voteCount", "desc");
  const rows = await page.orderBy("fr.createdAt", "desc").orderBy("fr.id", "desc").limit(query.limit).offset(query.offset).execute();
  const pageIds = rows.map((r) => r.id);
  const [tags, fieldsOf, revenue] = await Promise.all([
    tagsOf(db, pageIds, false),
    recordFieldsOf(db, rows.map((r) => r.appId)),
    revenueByCurrency(db, pageIds),
  ]);
  return {
    requests: rows.map((r) => toAdminFeatureRequest(r, tags.get(r.id) ?? [], fieldsOf(r), revenue.get(r.id) ?? [])),
    total: Number(total),
    pendingTotal: Number(pendingTotal),
  };
}
