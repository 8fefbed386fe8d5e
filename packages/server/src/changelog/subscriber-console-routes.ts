import { IdParam, MAX_LIST_OFFSET, PageOffset } from "@tidings/protocol";
import { sql } from "kysely";
import Type from "typebox";
import { AppParams } from "../apps/console-routes.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";

const tags = ["console: changelog"];
const Status = Type.Union([Type.Literal("pending"), Type.Literal("confirmed"), Type.Literal("unsubscribed")]);

const SubscriberSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  status: Status,
  createdAt: Type.String(),
  confirmedAt: Type.Union([Type.String(), Type.Null()]),
  unsubscribedAt: Type.Union([Type.String(), Type.Null()]),
});
const SubscriberListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(PageOffset(MAX_LIST_OFFSET)),
  status: Type.Optional(Status),
  q: Type.Optional(Type.String({ maxLength: 200 })),
});
const SubscriberParams = Type.Object({ wsId: IdParam("ws"), subscriberId: IdParam("esub") });

/** A CSV cell: quoted, and a leading formula character defused so spreadsheets show it as text. */
export function csvCell(value: string | null): string {
  const text = value ?? "";
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * Changelog subscribers of an app (list, remove, CSV export). Reads need membership; removing
 * needs `content.manage`.
 */
export function subscriberConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  const subscribers = (appId: string, filter: { status?: string | undefined; q?: string | undefined }) => {
    let query = db.selectFrom("emailSubscriptions").where("appId", "=", appId).where("kind", "=", "changelog");
    if (filter.status !== undefined) query = query.where("status", "=", filter.status as "pending" | "confirmed" | "unsubscribed");
    const q = filter.q?.trim().toLowerCase();
    if (q !== undefined && q !== "") {
      const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      // A literal substring on both dialects: SQLite has no default LIKE escape character.
      query = query.where(sql<boolean>`email like ${pattern} escape '\\'`);
    }
    return query;
  };

  app.get(
    "/workspaces/:wsId/apps/:appId/subscribers",
    {
      schema: {
        tags,
        summary: "Changelog subscribers of an app, newest first",
        description: "`status` (pending, confirmed, unsubscribed) and `q` (substring of the address) filter; `limit` 1–200 (default 50).",
        params: AppParams,
        querystring: SubscriberListQuery,
        response: { 200: Type.Object({ subscribers: Type.Array(SubscriberSchema), total: Type.Integer() }) },
      },
    },
    async (request) => {
      const { wsId, appId } = request.params;
      await workspaceAccess(ctx, request, wsId);
      await findAppInWorkspace(db, wsId, appId);
      const { limit = 50, offset = 0 } = request.query;
      const base = subscribers(appId, request.query);
      const { n } = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const rows = await base
        .select(["id", "email", "status", "createdAt", "confirmedAt", "unsubscribedAt"])
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .offset(offset)
        .execute();
      return { subscribers: rows, total: Number(n) };
    },
  );

  app.get(
    "/workspaces/:wsId/apps/:appId/subscribers/export",
    {
      schema: {
        tags,
        summary: "Every changelog subscriber of an app as CSV (email, status, subscribed, confirmed, unsubscribed)",
        params: AppParams,
        querystring: Type.Object({ status: Type.Optional(Status) }),
        documentedAnswers: { 200: { description: "The CSV, as an attachment", content: { "text/csv": { type: "string" } } } },
      },
    },
    async (request, reply) => {
      const { wsId, appId } = request.params;
      await workspaceAccess(ctx, request, wsId);
      const appRow = await findAppInWorkspace(db, wsId, appId);
      const rows = await subscribers(appId, request.query)
        .select(["email", "status", "createdAt", "confirmedAt", "unsubscribedAt"])
        .orderBy("createdAt")
        .orderBy("id")
        .execute();
      const lines = [
        "email,status,subscribed_at,confirmed_at,unsubscribed_at",
        ...rows.map((r) => [r.email, r.status, r.createdAt, r.confirmedAt, r.unsubscribedAt].map(csvCell).join(",")),
      ];
      const name = `${appRow.slug ?? "app"}-subscribers.csv`.replace(/[^A-Za-z0-9._-]/g, "_");
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${name}"`)
        .header("cache-control", "no-store")
        .send(`${lines.join("\r\n")}\r\n`);
    },
  );

  app.delete(
    "/workspaces/:wsId/subscribers/:subscriberId",
    {
      schema: {
        tags,
        summary: "Remove a subscriber: the address gets no further mail (mail already queued for it is dropped)",
        params: SubscriberParams,
        response: { 200: Type.Object({ success: Type.Boolean() }) },
      },
    },
    async (request) => {
      const { wsId, subscriberId } = request.params;
      const { role } = await workspaceAccess(ctx, request, wsId);
      requireCapability(role, "content.manage");
      const row = await db
        .selectFrom("emailSubscriptions as s")
        .innerJoin("apps as a", "a.id", "s.appId")
        .select("s.id")
        .where("s.id", "=", subscriberId)
        .where("a.workspaceId", "=", wsId)
        .where("s.kind", "=", "changelog")
        .executeTakeFirst();
      if (row === undefined) throw new ApiError("not_found", { message: "Subscriber not found" });
      await db.deleteFrom("emailSubscriptions").where("id", "=", row.id).execute();
      return { success: true };
    },
  );
}
