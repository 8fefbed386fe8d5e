import type { AdminFeatureRequest, RevenueByCurrency } from "@tidings/protocol";
import { sql, type Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { tagsOf } from "../tags/request-tags.js";
import type { TagRow } from "../tags/tags.js";
import { recordFieldsOf } from "../custom-fields/record-fields.js";
import { COMPANY_COUNT, revenueByCurrency } from "../companies/request-revenue.js";
import { ITEM_JOINED_COLUMNS, toItem } from "./items.js";

// Voters' payment facts, per request row `fr`. Raw SQL because the same expressions select,
// filter and sort; identifiers are snake_case as stored.
export const PAYING_VOTERS = sql<number>`(select count(*) from feature_request_votes pv join end_users pu on pu.id = pv.end_user_id where pv.feature_request_id = fr.id and pu.is_paying = 1)`;
export const REVENUE_CENTS = sql<number>`(select coalesce(sum(pu.mrr_cents), 0) from feature_request_votes pv join end_users pu on pu.id = pv.end_user_id where pv.feature_request_id = fr.id and pu.is_paying = 1)`;
export const SUBMITTER_PAYING = sql<number>`(select count(*) from end_users ru where ru.id = fr.requester_end_user_id and ru.is_paying = 1)`;

/** Requests of one workspace (`fr`, joined to their app `a`). */
export function inWorkspace(db: Kysely<Database>, workspaceId: string) {
  return db.selectFrom("featureRequests as fr").innerJoin("apps as a", "a.id", "fr.appId").where("a.workspaceId", "=", workspaceId);
}

export function recordQuery(db: Kysely<Database>, workspaceId: string) {
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

export type RecordRow = Awaited<ReturnType<ReturnType<typeof recordQuery>["executeTakeFirstOrThrow"]>>;

export function toAdminFeatureRequest(
  r: RecordRow,
  tags: TagRow[],
  fields: AdminFeatureRequest["fields"],
  revenue: RevenueByCurrency,
): AdminFeatureRequest {
  return {
    ...toItem(r, { hasVoted: false, isOwnRequest: false }),
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

/** One request of the workspace as the console sees it, or 404 `feature_request_not_found`. */
export async function getAdminFeatureRequest(db: Kysely<Database>, workspaceId: string, id: string): Promise<AdminFeatureRequest> {
  const row = await recordQuery(db, workspaceId).where("fr.id", "=", id).executeTakeFirst();
  if (row === undefined) throw new ApiError("feature_request_not_found");
  const [tags, fieldsOf, revenue] = await Promise.all([tagsOf(db, [id], false), recordFieldsOf(db, [row.appId]), revenueByCurrency(db, [id])]);
  return toAdminFeatureRequest(row, tags.get(id) ?? [], fieldsOf(row), revenue.get(id) ?? []);
}
