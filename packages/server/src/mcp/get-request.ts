import { z } from "zod";
import { findBoardInWorkspace } from "../boards/boards.js";
import { getAdminFeatureRequestDetail } from "../feature-requests/admin-records.js";
import { listComments } from "../feature-requests/comments.js";
import { workspaceLinks } from "./links.js";
import { requestShape } from "./request-shape.js";
import { defineTool, idOf, inField } from "./tool.js";

/**
 * One request with what the dashboard shows of it: board, tags, custom fields, history and
 * comments (hidden ones included and marked). Voters' companies and the feedback linked to a
 * request are not part of it yet.
 */
export const getRequestTool = defineTool({
  name: "get_request",
  title: "Get a feature request",
  description:
    "Gets one feature request of the workspace by id: its full description, board, column, tags, custom field values, votes, paying voters and their revenue, " +
    "its history (created, moved, shipped, merged, …, newest first) and its comments, oldest first (hidden ones included and marked `isHidden`). " +
    "Pass `commentCursor` from a previous answer's `comments.nextCursor` for the next comments.",
  writes: false,
  input: {
    id: idOf("fr").describe("The request's id (fr_…)"),
    commentLimit: z.number().int().min(1).max(200).default(50),
    commentCursor: z.string().max(1000).optional(),
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
