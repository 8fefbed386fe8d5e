import { FeedbackToRequestBodySchema, LinkFeedbackBodySchema, SubmissionRecordSchema } from "@tidings/protocol";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import { appTag, type Context } from "../context.js";
import { linkFeedback, unlinkFeedback } from "../feature-requests/feedback-links.js";
import { createTeamRequest } from "../feature-requests/request-edits.js";
import { triageCommand } from "../feature-requests/triage-command.js";
import type { App } from "../http/types.js";
import { findSubmission } from "./inbox.js";
import { SubmissionParams, tags } from "./submission-params.js";

/** Feedback as evidence for a feature request: linking, unlinking, and turning it into a new request. */
export function evidenceRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;
  const command = triageCommand(ctx);
  const one = { params: SubmissionParams, response: { 200: SubmissionRecordSchema } };

  const linked = async (wsId: string, id: string, appId: string, changed: boolean) => {
    if (changed) await ctx.cache.invalidateTag(appTag(appId));
    return (await findSubmission(db, wsId, id)).record;
  };

  app.put(
    "/workspaces/:wsId/submissions/:id/feature-request",
    {
      schema: {
        tags,
        summary: "Link the feedback to a feature request as evidence",
        description:
          "The request must be an approved, unmerged request of the feedback's app (else 400 `feature_request_not_linkable`; unknown or another workspace's: 404). " +
          "An identified reporter (an end user with a token) is counted as a voter unless they voted already; the request's console record lists the feedback with a quote. " +
          "Linking to another request moves the link (the first is undone); linking again to the same request changes nothing.",
        ...one,
        body: LinkFeedbackBodySchema,
      },
    },
    async (request) => {
      const { wsId, id } = request.params;
      const { role } = await workspaceAccess(ctx, request, wsId);
      requireCapability(role, "triage");
      const { appId, changed } = await linkFeedback(ctx.db, ctx.clock, wsId, id, request.body.featureRequestId);
      return linked(wsId, id, appId, changed);
    },
  );

  app.delete(
    "/workspaces/:wsId/submissions/:id/feature-request",
    {
      schema: {
        tags,
        summary: "Unlink the feedback from its feature request",
        description: "Undoes the link exactly: the vote the link added goes with it; a vote the reporter cast themselves stays. Idempotent.",
        ...one,
      },
    },
    async (request) => {
      const { wsId, id } = request.params;
      const { role } = await workspaceAccess(ctx, request, wsId);
      requireCapability(role, "triage");
      const { appId, changed } = await unlinkFeedback(ctx.db, ctx.clock, wsId, id);
      return linked(wsId, id, appId, changed);
    },
  );

  app.post(
    "/workspaces/:wsId/submissions/:id/feature-request",
    {
      schema: {
        tags,
        summary: "Turn the feedback into a new feature request, linked to it",
        description:
          "Creates an approved request in the feedback's app (title and description default to the feedback's; `boardId`, `columnId` or `columnSlug` as when the team creates a request), then links the feedback to it as `PUT` does.",
        params: SubmissionParams,
        body: FeedbackToRequestBodySchema,
        response: { 201: SubmissionRecordSchema },
      },
    },
    async (request, reply) => {
      const { wsId, id } = request.params;
      const { title, description, ...placement } = request.body;
      const created = await command(request, wsId, ["triage", "content.manage"], async (t) => {
        const sub = (await findSubmission(t.trx, wsId, id)).record;
        const row = await createTeamRequest(t, sub.appId, { title: title ?? sub.title, description: description ?? sub.description, ...placement });
        return { id: row.id, appId: sub.appId, appIds: [sub.appId] };
      });
      const { changed } = await linkFeedback(ctx.db, ctx.clock, wsId, id, created.id);
      return reply.code(201).send(await linked(wsId, id, created.appId, changed));
    },
  );
}
