import { COMPANY_PAGE_LIMIT, type CompanyDetail } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { findCompanyInWorkspace } from "./companies.js";

/**
 * A company's page: its users (most recently seen first) and their votes, comments and feedback
 * (newest first), {@link COMPANY_PAGE_LIMIT} of each. Hidden comments are included and marked,
 * as the console shows them.
 */
export async function companyDetail(db: Kysely<Database>, workspaceId: string, companyId: string): Promise<CompanyDetail> {
  const company = await findCompanyInWorkspace(db, workspaceId, companyId);
  const [users, votes, comments, feedback] = await Promise.all([
    db
      .selectFrom("endUsers as u")
      .select(["u.publicId", "u.displayName", "u.email", "u.isPaying", "u.plan", "u.mrrCents", "u.currency", "u.lastSeenAt"])
      .where("u.companyId", "=", companyId)
      .orderBy("u.lastSeenAt", "desc")
      .orderBy("u.id", "desc")
      .limit(COMPANY_PAGE_LIMIT)
      .execute(),
    db
      .selectFrom("featureRequestVotes as v")
      .innerJoin("endUsers as u", "u.id", "v.endUserId")
      .innerJoin("featureRequests as fr", "fr.id", "v.featureRequestId")
      .select(["fr.id as featureRequestId", "fr.title", "u.publicId as userPublicId", "v.createdAt as votedAt"])
      .where("u.companyId", "=", companyId)
      .orderBy("v.createdAt", "desc")
      .orderBy("fr.id", "desc")
      .orderBy("u.publicId", "desc")
      .limit(COMPANY_PAGE_LIMIT)
      .execute(),
    db
      .selectFrom("featureRequestComments as cm")
      .innerJoin("endUsers as u", "u.id", "cm.endUserId")
      .innerJoin("featureRequests as fr", "fr.id", "cm.featureRequestId")
      .select(["cm.id", "fr.id as featureRequestId", "fr.title", "u.publicId as userPublicId", "cm.body", "cm.isHidden", "cm.createdAt"])
      .where("u.companyId", "=", companyId)
      .orderBy("cm.createdAt", "desc")
      .orderBy("cm.id", "desc")
      .limit(COMPANY_PAGE_LIMIT)
      .execute(),
    db
      .selectFrom("submissions as s")
      .innerJoin("endUsers as u", "u.id", "s.endUserId")
      .select(["s.id", "s.title", "u.publicId as userPublicId", "s.triageStatus", "s.createdAt"])
      .where("u.companyId", "=", companyId)
      .orderBy("s.createdAt", "desc")
      .orderBy("s.id", "desc")
      .limit(COMPANY_PAGE_LIMIT)
      .execute(),
  ]);
  return {
    company,
    users: users.map(({ mrrCents, isPaying, ...u }) => ({ ...u, isPaying: isPaying === null ? null : isPaying === 1, mrr: mrrCents === null ? null : mrrCents / 100 })),
    votes,
    comments: comments.map(({ isHidden, ...c }) => ({ ...c, hidden: isHidden === 1 })),
    feedback,
  };
}
