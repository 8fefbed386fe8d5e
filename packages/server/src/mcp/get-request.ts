import { z } from "zod";
import { findBoardInWorkspace } from "../boards/boards.js";
import { DETAIL_VOTER_LIMIT, getAdminFeatureRequestDetail } from "../feature-requests/admin-detail.js";
import { listComments } from "../feature-requests/comment-pages.js";
import { workspaceLinks } from "./links.js";
import { requestShape } from "./request-shape.js";
import { inField } from "./tool-answers.js";
import { idOf } from "./tool-inputs.js";
import { defineTool } from "./tool.js";

/**
 * One request with what the dashboard shows of it: board, tags, custom fields, history, comments
 * (hidden ones included and marked), the voters' companies with the revenue they add up to, and
 * the feedback linked to it as evidence. All of it is the console's record of the request
 * (`getAdminFeatureRequestDetail`), so the numbers are the dashboard's.
 */
export const getRequestTool = defineTool({
  name: "get_request",
  title: "Get a feature request",
  description:
    "Gets one feature request of the workspace by id: its full description, board, column, tags, custom field values, votes, paying voters, " +
    "the voters' companies (`companies`: name, monthly revenue and currency, plan, how many of their users voted; highest revenue first) and `revenue`, the monthly revenue per currency of the voters' accounts " +
    "(each company once, each paying voter without a company alone, currencies never converted), the feedback linked to it as evidence (`linkedFeedback`, newest link first), " +
    "its history (created, moved, shipped, merged, …, newest first) and its comments, oldest first (hidden ones included and marked `isHidden`). " +
    "Pass `commentCursor` from a previous answer's `comments.nextCursor` for the next comments.",
  writes: false,
  input: {
    id: idOf("fr").describe("The request's id (fr_…)"),
    commentLimit: z.number().int().min(1).max(200).default(50),
    commentCursor: z.string().max(1000).optional(),
    companyLimit: z.number().int().min(1).max(DETAIL_VOTER_LIMIT).default(50).describe("How many of the voters' companies to list"),
    feedbackLimit: z.number().int().min(1).max(DETAIL_VOTER_LIMIT).default(50).describe("How many linked feedback to list"),
  },
  async run({ ctx, access }, input) {
    const db = ctx.db.kysely;
    const detail = await inField("id", getAdminFeatureRequestDetail(db, access.workspaceId, input.id));
    const [board, comments, links] = await Promise.all([
      findBoardInWorkspace(db, access.workspaceId, detail.boardId),
      inField("commentCursor", listComments(db, detail.id, { limit: input.commentLimit, cursor: input.commentCursor, includeHidden: true })),
      workspaceLinks(db, ctx.publicBase, access.workspaceId),
    ]);
    return {
      request: {
        ...requestShape(detail, links, { fullDescription: true }),
        board: { id: board.id, name: board.name, slug: board.slug, visibility: board.visibility },
        fields: detail.fields.map((f) => ({ key: f.key, label: f.label, type: f.type, value: f.value, archived: f.archived })),
        history: detail.events.map((e) => ({ type: e.type, data: e.data, actor: e.actor, at: e.createdAt })),
      },
      companies: {
        total: detail.companyCount,
        hasMore: detail.companyCount > input.companyLimit,
        items: detail.companies.slice(0, input.companyLimit).map((c) => ({
          id: c.id,
          externalId: c.externalId,
          name: c.name,
          mrr: c.mrr,
          currency: c.currency,
          plan: c.plan,
          voters: c.voters,
          dashboardUrl: links.companyDashboardUrl(detail.appId, c.id),
        })),
      },
      linkedFeedback: {
        total: detail.feedback.length,
        hasMore: detail.feedback.length > input.feedbackLimit,
        items: detail.feedback.slice(0, input.feedbackLimit).map((f) => ({
          id: f.submissionId,
          title: f.title,
          quote: f.quote,
          reporterName: f.reporterName,
          /** The reporter was an identified user, counted as a voter by the link (unless they had voted). */
          reporterIdentified: f.voterPublicId !== null,
          linkedAt: f.linkedAt,
          createdAt: f.createdAt,
          dashboardUrl: links.feedbackDashboardUrl(),
        })),
      },
      comments: {
        total: comments.total,
        hasMore: comments.hasMore,
        nextCursor: comments.nextCursor,
        items: comments.comments.map((c) => ({
          id: c.id,
          authorName: c.authorName,
          isTeam: c.isTeam,
          isHidden: c.isHidden,
          parentId: c.parentId,
          body: c.body,
          createdAt: c.createdAt,
        })),
      },
    };
  },
});
