import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { requestCompanies } from "../companies/request-revenue.js";
import { getAdminFeatureRequest } from "./admin-records.js";
import { linkedFeedback } from "./feedback-links.js";

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
