import type { AdminFeatureRequest } from "@tidings/protocol";
import type { Links } from "./links.js";
import { excerpt } from "./excerpt.js";

/**
 * A request as the tools answer it: ids, the facts a reader ranks by (votes, paying voters,
 * voting companies and their monthly revenue), where it stands, and its links. The description is cut to an excerpt
 * in listings; `get_request` gives it whole.
 */
export function requestShape(r: AdminFeatureRequest, links: Links, options: { fullDescription?: boolean } = {}) {
  const isPublic = r.moderation === "approved" && r.mergedIntoId === null;
  return {
    id: r.id,
    appId: r.appId,
    boardId: r.boardId,
    title: r.title,
    description: options.fullDescription === true ? r.description : excerpt(r.description),
    column: r.columnId === null ? null : { id: r.columnId, name: r.columnName, slug: r.columnSlug },
    version: r.versionId === null ? null : { id: r.versionId, label: r.versionLabel, released: r.releasedVersion !== null },
    moderation: r.moderation,
    mergedIntoId: r.mergedIntoId,
    voteCount: r.voteCount,
    payingVoters: r.payingVoters,
    /** Monthly revenue of the paying voters, in currency units, whatever their currencies. */
    payingVoterRevenue: r.revenueTotal,
    /** Companies among the voters. */
    companyCount: r.companyCount,
    /** The voters' accounts' monthly revenue per currency, as the dashboard shows it: each company once, each paying voter without one alone. */
    revenue: r.companyRevenue,
    commentCount: r.commentCount,
    tags: r.tags.map((t) => ({ id: t.id, name: t.name, slug: t.slug })),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    // Only approved, unmerged requests have a public page.
    portalUrl: isPublic ? links.requestPortalUrl(r.appId, r) : null,
    dashboardUrl: links.requestDashboardUrl(r.appId, r.id),
  };
}
