import Type from "typebox";
import { AppParams } from "../../apps/console-routes.js";
import type { Context } from "../../context.js";
import type { App } from "../../http/types.js";
import type { JobRunner } from "../../jobs/runner.js";
import { deleteTrackerConnection, findTrackerConnection } from "./connections.js";
import { consoleAccess } from "./console-access.js";
import type { TrackerConsoleSpec } from "./console-spec.js";

const Success = Type.Object({ success: Type.Boolean() });

/**
 * One tracker's connection routes: the app's connection at `/workspaces/:wsId/apps/:appId/{provider}`,
 * read by any member; connect, change and disconnect are for owners and admins, as its
 * credentials are secrets.
 */
export function trackerConnectionRoutes(app: App, ctx: Context, jobs: JobRunner, spec: TrackerConsoleSpec): void {
  const db = ctx.db.kysely;
  const { adapter, schemas, docs } = spec;
  const tags = [`console: ${adapter.service}`];
  const access = consoleAccess(ctx);
  const base = `/workspaces/:wsId/apps/:appId/${adapter.provider}`;

  app.get(base, { schema: { tags, ...docs.get, params: AppParams, response: { 200: schemas.connection } } }, async (request) => {
    const { wsId, appId } = request.params;
    await access.app(request, wsId, appId);
    return spec.view(ctx, await findTrackerConnection(db, adapter, appId));
  });

  app.post(base, { schema: { tags, ...docs.connect, params: AppParams, body: schemas.connect, response: { 201: schemas.created } } }, async (request, reply) => {
    const { wsId, appId } = request.params;
    await access.app(request, wsId, appId, "app.configure");
    const row = await spec.connect(ctx, appId, request.body);
    return reply.code(201).send(await spec.created(ctx, row));
  });

  app.patch(base, { schema: { tags, ...docs.patch, params: AppParams, body: schemas.patch, response: { 200: schemas.connection } } }, async (request) => {
    const { wsId, appId } = request.params;
    await access.app(request, wsId, appId, "app.configure");
    const row = await spec.patch(ctx, appId, request.body);
    jobs.kick();
    return spec.view(ctx, row);
  });

  app.delete(base, { schema: { tags, ...docs.disconnect, params: AppParams, response: { 200: Success } } }, async (request) => {
    const { wsId, appId } = request.params;
    await access.app(request, wsId, appId, "app.configure");
    await db.transaction().execute((trx) => deleteTrackerConnection(trx, adapter, appId));
    return { success: true };
  });
}
