import { IdParam } from "@tidings/protocol";
import Type from "typebox";
import type { Context } from "../../context.js";
import type { App } from "../../http/types.js";
import type { JobRunner } from "../../jobs/runner.js";
import { findTrackerConnection } from "./connections.js";
import { consoleAccess } from "./console-access.js";
import type { TrackerConsoleSpec } from "./console-spec.js";
import { createIssueForRequest, findTrackerLink, linkIssue, unlinkIssue } from "./links.js";

const RequestParams = Type.Object({ wsId: IdParam("ws"), id: IdParam("fr") });
const Success = Type.Object({ success: Type.Boolean() });

/**
 * One tracker's issue routes: a request's issue at `/workspaces/:wsId/feature-requests/:id/{provider}`,
 * read by any member; create, link and unlink with `triage`.
 */
export function trackerIssueRoutes(app: App, ctx: Context, jobs: JobRunner, spec: TrackerConsoleSpec): void {
  const db = ctx.db.kysely;
  const { adapter, schemas, docs } = spec;
  const tags = [`console: ${adapter.service}`];
  const access = consoleAccess(ctx);
  const issueBase = `/workspaces/:wsId/feature-requests/:id/${adapter.provider}`;

  app.get(issueBase, { schema: { tags, ...docs.getLink, params: RequestParams, response: { 200: schemas.link } } }, async (request) => {
    const { wsId, id } = request.params;
    const fr = await access.request(request, wsId, id);
    const link = await findTrackerLink(db, adapter, fr.id);
    return spec.linkView(link, await findTrackerConnection(db, adapter, fr.appId));
  });

  app.post(issueBase + "/issue", { schema: { tags, ...docs.createIssue, params: RequestParams, body: schemas.createIssue, response: { 201: schemas.link } } }, async (request, reply) => {
    const { wsId, id } = request.params;
    const fr = await access.request(request, wsId, id, "triage");
    const made = await createIssueForRequest(ctx, adapter, fr, spec.issueInput(request.body));
    return reply.code(201).send(spec.linkView(made.link, made.connection));
  });

  app.put(issueBase, { schema: { tags, ...docs.linkIssue, params: RequestParams, body: schemas.linkIssue, response: { 201: schemas.link } } }, async (request, reply) => {
    const { wsId, id } = request.params;
    const fr = await access.request(request, wsId, id, "triage");
    const made = await linkIssue(ctx, adapter, fr, (request.body as { issue: number | string }).issue);
    jobs.kick();
    return reply.code(201).send(spec.linkView(made.link, made.connection));
  });

  app.delete(issueBase, { schema: { tags, ...docs.unlink, params: RequestParams, response: { 200: Success } } }, async (request) => {
    const { wsId, id } = request.params;
    const fr = await access.request(request, wsId, id, "triage");
    await db.transaction().execute((trx) => unlinkIssue(trx, ctx.clock, adapter, fr.id));
    jobs.kick();
    return { success: true };
  });
}
