import { COMPANY_PAGE_LIMIT } from "@tidings/protocol";
import { z } from "zod";
import { companyDetail } from "../companies/company-detail.js";
import { workspaceLinks } from "./links.js";
import { excerpt } from "./excerpt.js";
import { inField } from "./tool-answers.js";
import { idOf } from "./tool-inputs.js";
import { defineTool } from "./tool.js";

/** How many of each of a user's items a list holds, by user. */
function countBy(items: readonly { userPublicId: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.userPublicId, (counts.get(item.userPublicId) ?? 0) + 1);
  return counts;
}

/**
 * A company as its dashboard page shows it (`companyDetail`): its facts, its users with how many
 * votes, comments and feedback each has, and the latest of those, newest first.
 */
export const getCompanyTool = defineTool({
  name: "get_company",
  title: "Get a company",
  description:
    "Gets one company of the workspace by id (co_…, from get_request's `companies`): its name, monthly revenue and currency, plan and attributes as the app reported them, " +
    "how many users it has and how many requests they voted for; its users (most recently seen first) with how many votes, comments and feedback each has; " +
    `and its users' latest votes, comments (hidden ones marked) and feedback, newest first. The counts are over the latest ${COMPANY_PAGE_LIMIT} of each kind; \`hasMore\` says a list holds more than \`limit\` gave.`,
  writes: false,
  input: {
    id: idOf("co").describe("The company's id (co_…)"),
    limit: z.number().int().min(1).max(COMPANY_PAGE_LIMIT).default(20).describe("How many users, votes, comments and feedback to list"),
  },
  async run({ ctx, access }, input) {
    const db = ctx.db.kysely;
    const detail = await inField("id", companyDetail(db, access.workspaceId, input.id));
    const links = await workspaceLinks(db, ctx.publicBase, access.workspaceId);
    const { company } = detail;
    const [votes, comments, feedback] = [countBy(detail.votes), countBy(detail.comments), countBy(detail.feedback)];
    const page = <T>(items: readonly T[]) => ({ hasMore: items.length > input.limit, items: items.slice(0, input.limit) });
    const requestUrl = (requestId: string) => links.requestDashboardUrl(company.appId, requestId);
    return {
      company: { ...company, dashboardUrl: links.companyDashboardUrl(company.appId, company.id) },
      users: page(
        detail.users.map((u) => ({
          publicId: u.publicId,
          displayName: u.displayName,
          isPaying: u.isPaying,
          plan: u.plan,
          mrr: u.mrr,
          currency: u.currency,
          lastSeenAt: u.lastSeenAt,
          votes: votes.get(u.publicId) ?? 0,
          comments: comments.get(u.publicId) ?? 0,
          feedback: feedback.get(u.publicId) ?? 0,
        })),
      ),
      votes: { total: detail.votes.length, ...page(detail.votes.map((v) => ({ ...v, dashboardUrl: requestUrl(v.featureRequestId) }))) },
      comments: {
        total: detail.comments.length,
        ...page(detail.comments.map((c) => ({ ...c, body: excerpt(c.body), dashboardUrl: requestUrl(c.featureRequestId) }))),
      },
      feedback: { total: detail.feedback.length, ...page(detail.feedback.map((f) => ({ ...f, dashboardUrl: links.feedbackDashboardUrl() }))) },
    };
  },
});
