import type { SegmentRule } from "@tidings/protocol";
import { ruleCondition } from "../segments/rule.js";
import type { AdminFeatureRequest, AdminFeatureRequestSort, FeatureRequestItem, ModerationState } from "@tidings/protocol";
import { ITEM_JOINED_COLUMNS, recentCommenters, toItem } from "./items.js";
import { sql, type Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { linkedFeedback } from "./feedback-links.js";
import { hasEveryTag } from "./listed.js";
import { ApiError } from "../http/errors.js";
import { searchText } from "../search/search-text.js";
import { tagsOf, type TagRow } from "../tags/tags.js";
import { fieldCondition, type FieldFilter } from "../custom-fields/filters.js";
import { recordFieldsOf } from "../custom-fields/record-fields.js";
import { COMPANY_COUNT, companyRevenueCents, requestCompanies, revenueByCurrency, votedByCompany, voterOnPlan } from "../companies/request-revenue.js";
import type { RevenueByCurrency } from "@tidings/protocol";

// Voters' payment facts, per request row `fr`. Raw SQL because the same expressions select,
// filter and sort; identifiers are snake_case as stored.
const PAYING_VOTERS = sql<number>`(select count(*) from feature_request_votes pv join end_users pu on pu.id = pv.end_user_id where pv.feature_request_id = fr.id and pu.is_paying = 1)`;
const REVENUE_CENTS = sql<number>`(select coalesce(sum(pu.mrr_cents), 0) from feature_request_votes pv join end_users pu on pu.id = pv.end_user_id where pv.feature_request_id = fr.id and pu.is_paying = 1)`;
const SUBMITTER_PAYING = sql<number>`(select count(*) from end_users ru where ru.id = fr.requester_end_user_id and ru.is_paying = 1)`;

/** Requests of one workspace (`fr`, joined to their app `a`). */
function inWorkspace(db: Kysely<Database>, workspaceId: string) {
  return db.selectFrom("featureRequests as fr").innerJoin("apps as a", "a.id", "fr.appId").where("a.workspaceId", "=", workspaceId);
}

function recordQuery(db: Kysely<Database>, workspaceId: string) {
  return inWorkspace(db, workspaceId)
    .leftJoin("boardColumns as c", "c.id", "fr.columnId")
    .leftJoin("appVersions as v", "v.id", "fr.versionId")
    .leftJoin("endUsers as requester", "requester.id", "fr.requesterEndUserId")
    .selectAll("fr")
    .select(ITEM_JOINED_COLUMNS)
    .select([
      PAYING_VOTERS.as("payingVoters"),
      REVENUE_CENTS.as("revenueCents"),
      SUBMITTER_PAYING.as("submitterPaying"),
      COMPANY_COUNT.as("companyCount"),
    ]);
}

type RecordRow = Awaited<ReturnType<ReturnType<typeof recordQuery>["executeTakeFirstOrThrow"]>>;

function toAdminFeatureRequest(
  r: RecordRow,
  commenters: FeatureRequestItem["recentCommenters"],
  tags: TagRow[],
  fields: AdminFeatureRequest["fields"],
  revenue: RevenueByCurrency,
): AdminFeatureRequest {
  return {
    ...toItem(r, commenters, { hasVoted: false, isOwnRequest: false }),
    tags: tags.map((t) => ({ id: t.id, name: t.name, slug: t.slug, color: t.color, visibility: t.visibility })),
    fields,
    moderation: r.moderation,
    requesterEmail: r.requesterEmail,
    approvedAt: r.approvedAt,
    createdByAdmin: r.createdByAdmin === 1,
    mergedIntoId: r.mergedIntoId,
    revenueTotal: Number(r.revenueCents) / 100,
    payingVoters: Number(r.payingVoters),
    submitterIsPaying: Number(r.submitterPaying) > 0,
    companyCount: Number(r.companyCount),
    companyRevenue: revenue,
  };
}

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
  const [commenters, tags, fieldsOf, revenue] = await Promise.all([
    recentCommenters(db, pageIds),
    tagsOf(db, pageIds, false),
    recordFieldsOf(db, rows.map((r) => r.appId)),
    revenueByCurrency(db, pageIds),
  ]);
  return {
    requests: rows.map((r) => toAdminFeatureRequest(r, commenters.get(r.id) ?? [], tags.get(r.id) ?? [], fieldsOf(r), revenue.get(r.id) ?? [])),
    total: Number(total),
    pendingTotal: Number(pendingTotal),
  };
}

/** One request of the workspace as the console sees it, or 404 `feature_request_not_found`. */
export async function getAdminFeatureRequest(db: Kysely<Database>, workspaceId: string, id: string): Promise<AdminFeatureRequest> {
  const row = await recordQuery(db, workspaceId).where("fr.id", "=", id).executeTakeFirst();
  if (row === undefined) throw new ApiError("feature_request_not_found");
  const [commenters, tags, fieldsOf, revenue] = await Promise.all([recentCommenters(db, [id]), tagsOf(db, [id], false), recordFieldsOf(db, [row.appId]), revenueByCurrency(db, [id])]);
  return toAdminFeatureRequest(row, commenters.get(id) ?? [], tags.get(id) ?? [], fieldsOf(row), revenue.get(id) ?? []);
}

/** How many voters, and how many of their companies, the detail view lists. */
export const DETAIL_VOTER_LIMIT = 500;

/** A request with its history (newest first) and its most recent voters. */
export async function getAdminFeatureRequestDetail(db: Kysely<Database>, workspaceId: string, id: string) {
  const record = await getAdminFeatureRequest(db, workspaceId, id);
  const [events, voters, companies, feedback] = await Promise.all([
    db
      .selectFrom("featureRequestEvents")
      .select(["id", "type", "data", "actor", "createdAt"])
      .where("featureRequestId", "=", id)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .execute(),
    db
      .selectFrom("featureRequestVotes as vt")
      .innerJoin("endUsers as eu", "eu.id", "vt.endUserId")
      .leftJoin("companies as co", "co.id", "eu.companyId")
      .select(["eu.publicId", "eu.displayName", "eu.avatarUrl", "eu.isPaying", "eu.plan", "eu.mrrCents", "eu.currency", "vt.createdAt", "vt.addedBy", "vt.note", "vt.sourceSubmissionId"])
      .select(["co.id as companyId", "co.externalId as companyExternalId", "co.name as companyName"])
      .where("vt.featureRequestId", "=", id)
      .orderBy("vt.createdAt", "desc")
      .orderBy("eu.publicId", "desc")
      .limit(DETAIL_VOTER_LIMIT)
      .execute(),
    requestCompanies(db, id, DETAIL_VOTER_LIMIT),
    linkedFeedback(db, id, DETAIL_VOTER_LIMIT),
  ]);
  return {
    ...record,
    events: events.map((e) => ({ ...e, data: JSON.parse(e.data) as Record<string, unknown> })),
    voters: voters.map((v) => ({
      publicId: v.publicId,
      displayName: v.displayName,
      avatarUrl: v.avatarUrl,
      isPaying: v.isPaying === 1,
      plan: v.plan,
      mrr: v.mrrCents === null ? null : v.mrrCents / 100,
      currency: v.currency,
      company: v.companyId === null ? null : { id: v.companyId, externalId: v.companyExternalId ?? "", name: v.companyName },
      votedAt: v.createdAt,
      addedByTeam: v.addedBy !== null,
      addedBy: v.addedBy,
      note: v.note,
      fromSubmissionId: v.sourceSubmissionId,
    })),
    companies,
    feedback,
  };
}
