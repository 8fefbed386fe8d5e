import { IdParam } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type, { type TSchema } from "typebox";
import { findAppInWorkspace } from "../../apps/apps.js";
import { AppParams } from "../../apps/console-routes.js";
import { workspaceAccess } from "../../console/auth.js";
import { requireCapability, type Capability } from "../../console/capabilities.js";
import type { Context } from "../../context.js";
import { findRequestInWorkspace } from "../../feature-requests/triage.js";
import type { App } from "../../http/types.js";
import type { JobRunner } from "../../jobs/runner.js";
import type { TrackerAdapter, TrackerConnectionRow, TrackerLinkRow } from "./adapter.js";
import { deleteTrackerConnection, findTrackerConnection } from "./connections.js";
import { createIssueForRequest, findTrackerLink, linkIssue, unlinkIssue } from "./links.js";

const RequestParams = Type.Object({ wsId: IdParam("ws"), id: IdParam("fr") });
const Success = Type.Object({ success: Type.Boolean() });

/** A route's OpenAPI words. */
export interface RouteDoc {
  summary: string;
  description?: string;
}

/** What one tracker's console routes need beyond the shared code: its schemas, its words, and its connection's shape. */
export interface TrackerConsoleSpec {
  adapter: TrackerAdapter;
  schemas: { connection: TSchema; created: TSchema; connect: TSchema; patch: TSchema; link: TSchema; createIssue: TSchema; linkIssue: TSchema };
  docs: { get: RouteDoc; connect: RouteDoc; patch: RouteDoc; disconnect: RouteDoc; getLink: RouteDoc; createIssue: RouteDoc; linkIssue: RouteDoc; unlink: RouteDoc };
  /** Makes the app's connection from a validated body (409 when it has one). */
  connect(ctx: Context, appId: string, body: unknown): Promise<TrackerConnectionRow>;
  /** Applies a validated patch to the app's connection. */
  patch(ctx: Context, appId: string, body: unknown): Promise<TrackerConnectionRow>;
  /** The connection as the console shows it. */
  view(ctx: Context, row: TrackerConnectionRow): Promise<unknown>;
  /** The answer to a new connection (the view, with whatever is shown only once). */
  created(ctx: Context, row: TrackerConnectionRow): Promise<unknown>;
  /** A link as the console shows it. */
  linkView(link: TrackerLinkRow, connection: TrackerConnectionRow): unknown;
  /** The title and body a create-issue body asks for. */
  issueInput(body: unknown): { title?: string | undefined; body?: string | undefined };
}

/** Resolves a console request's workspace access, with a capability when one is needed. */
export function consoleAccess(ctx: Context) {
  const db = ctx.db.kysely;
  return {
    app: async (request: FastifyRequest, wsId: string, appId: string, capability?: Capability) => {
      const { role } = await workspaceAccess(ctx, request, wsId);
      if (capability !== undefined) requireCapability(role, capability);
      await findAppInWorkspace(db, wsId, appId);
    },
    request: async (request: FastifyRequest, wsId: string, id: string, capability?: Capability) => {
      const { role } = await workspaceAccess(ctx, request, wsId);
      if (capability !== undefined) requireCapability(role, capability);
      return findRequestInWorkspace(db, wsId, id);
    },
  };
}

/**
 * One tracker's console routes, the same for every tracker: the app's connection at
 * `/workspaces/:wsId/apps/:appId/{provider}` (connect, change, disconnect: owners and admins, as
 * its credentials are secrets) and a request's issue at `/workspaces/:wsId/feature-requests/:id/{provider}`
 * (read by any member; create, link and unlink with `triage`).
 *
 * @example
 * ```ts
 * trackerConsoleRoutes(app, ctx, jobs, githubConsoleSpec);
 * ```
 */
export function trackerConsoleRoutes(app: App, ctx: Context, jobs: JobRunner, spec: TrackerConsoleSpec): void {
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
