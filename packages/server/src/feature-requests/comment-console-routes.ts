import { CommentListQuerySchema, CommentListSchema, CommentSchema, HideCommentBodySchema, IdParam, TeamCommentBodySchema } from "@tidings/protocol";
import Type from "typebox";
import { workspaceAccess, type Principal } from "../console/auth.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { deleteComment, setCommentHidden } from "./comment-moderation.js";
import { addComment } from "./comments.js";
import { listComments } from "./comment-pages.js";
import { queueRequestNotices } from "./notices.js";
import { findRequestInWorkspace } from "./triage.js";
import { RequestParams, tags, triageCommand } from "./triage-command.js";

const CommentParams = Type.Object({ wsId: IdParam("ws"), commentId: IdParam("cmt") });
const Success = Type.Object({ success: Type.Boolean() });

/** How a team reply is signed: the user's display name, their email's local part, or "Team". */
function teamAuthorName(principal: Principal): string {
  if (principal.kind === "admin") return "Team";
  return principal.displayName ?? (principal.email.split("@")[0] || "Team");
}

/**
 * Comments in the console: a request's comments (hidden ones included), team replies, hiding
 * and deleting. Reads need membership; writes need `content.manage`.
 */
export function commentConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;
  const command = triageCommand(ctx);

  app.get(
    "/workspaces/:wsId/feature-requests/:id/comments",
    {
      schema: {
        tags,
        summary: "Comments of a request, oldest first, hidden ones included",
        params: RequestParams,
        querystring: CommentListQuerySchema,
        response: { 200: CommentListSchema },
      },
    },
    async (request) => {
      const { wsId, id } = request.params;
      await workspaceAccess(ctx, request, wsId);
      const row = await findRequestInWorkspace(db, wsId, id);
      return listComments(db, row.id, { limit: request.query.limit ?? 200, cursor: request.query.cursor, includeHidden: true });
    },
  );

  app.post(
    "/workspaces/:wsId/feature-requests/:id/comments",
    {
      schema: {
        tags,
        summary: "Reply as the team",
        description: "Marked `isTeam`; signed with the user's display name, their email's local part, or \"Team\".",
        params: RequestParams,
        body: TeamCommentBodySchema,
        response: { 201: CommentSchema },
      },
    },
    async (request, reply) => {
      const { wsId, id } = request.params;
      const { comment } = await command(request, wsId, ["content.manage"], async (t, principal) => {
        const text = request.body.body.trim();
        if (text === "") {
          throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { body: ["Required"] } } });
        }
        const row = await findRequestInWorkspace(t.trx, wsId, id);
        const comment = await addComment(t.trx, t.clock, {
          featureRequestId: row.id,
          body: text,
          authorName: teamAuthorName(principal),
          authorEmail: null,
          endUserId: null,
          teamUserId: principal.kind === "user" ? principal.userId : null,
          isTeam: true,
          parentId: request.body.parentId ?? null,
        });
        // Followers hear about team replies in their hourly digest.
        await queueRequestNotices(t.trx, t.clock, {
          appId: row.appId,
          featureRequestId: row.id,
          kind: "replied",
          key: `reply:${comment.id}`,
          data: { author: comment.authorName, body: text.slice(0, 500) },
        });
        return { comment, appIds: [row.appId] };
      });
      return reply.code(201).send(comment);
    },
  );

  app.patch(
    "/workspaces/:wsId/comments/:commentId/hide",
    {
      schema: { tags, summary: "Hide or show a comment", params: CommentParams, body: HideCommentBodySchema, response: { 200: Success } },
    },
    async (request) => {
      const { wsId, commentId } = request.params;
      await command(request, wsId, ["content.manage"], async (t) => ({
        appIds: [(await setCommentHidden(t, commentId, request.body.isHidden)).appId],
      }));
      return { success: true };
    },
  );

  app.delete(
    "/workspaces/:wsId/comments/:commentId",
    {
      schema: { tags, summary: "Delete a comment (its replies stay)", params: CommentParams, response: { 200: Success } },
    },
    async (request) => {
      const { wsId, commentId } = request.params;
      await command(request, wsId, ["content.manage"], async (t) => ({ appIds: [(await deleteComment(t, commentId)).appId] }));
      return { success: true };
    },
  );
}
