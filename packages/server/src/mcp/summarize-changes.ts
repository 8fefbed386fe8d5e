import { z } from "zod";
import { findAppInWorkspace } from "../apps/apps.js";
import { listColumns } from "../roadmap/columns.js";
import { changesSince } from "./changes-since.js";
import { workspaceLinks } from "./links.js";
import { inField } from "./tool-answers.js";
import { dateInput, idOf } from "./tool-inputs.js";
import { defineTool } from "./tool.js";

/** What changed in the workspace (or one app) since a date: the digest a team reads on Monday. */
export const summarizeChangesTool = defineTool({
  name: "summarize_changes",
  title: "Summarise what changed since a date",
  description:
    "Summarises what changed in the workspace (or one app) since a day or time: new feature requests, moves between roadmap columns, requests shipped (entered a done column), " +
    "the requests that gained most votes, new feedback and published releases. Each part has a whole count and its first `limit` items with ids (newest first; most new votes first).",
  writes: false,
  input: {
    since: dateInput().describe("A day (2026-03-01, from midnight UTC) or an ISO 8601 time"),
    appId: idOf("app").optional().describe("Only this app"),
    limit: z.number().int().min(1).max(50).default(10).describe("Items listed per part"),
  },
  async run({ ctx, access }, input) {
    const db = ctx.db.kysely;
    const ws = access.workspaceId;
    const appIds =
      input.appId === undefined
        ? (await db.selectFrom("apps").select("id").where("workspaceId", "=", ws).execute()).map((a) => a.id)
        : [(await inField("appId", findAppInWorkspace(db, ws, input.appId))).id];
    const [changes, links, columns] = await Promise.all([
      changesSince(db, ws, appIds, input.since, input.limit),
      workspaceLinks(db, ctx.publicBase, ws),
      Promise.all(appIds.map((id) => listColumns(db, id))),
    ]);
    const columnNames = new Map(columns.flat().map((c) => [c.id, c.name]));
    const column = (id: string | null) => (id === null ? null : { id, name: columnNames.get(id) ?? null });
    return {
      since: input.since,
      appId: input.appId ?? null,
      newRequests: {
        count: changes.newRequests.count,
        items: changes.newRequests.items.map((r) => ({ ...r, dashboardUrl: links.requestDashboardUrl(r.appId, r.id) })),
      },
      statusMoves: {
        count: changes.statusMoves.count,
        items: changes.statusMoves.items.map((m) => ({ requestId: m.requestId, title: m.title, from: column(m.fromColumnId), to: column(m.toColumnId), at: m.at })),
      },
      shipped: changes.shipped,
      topVoted: changes.topVoted,
      newFeedback: { ...changes.newFeedback, dashboardUrl: links.feedbackDashboardUrl() },
      publishedReleases: {
        count: changes.publishedReleases.count,
        items: changes.publishedReleases.items.map((r) => ({ ...r, portalUrl: links.releasePortalUrl(r.appId, r) })),
      },
    };
  },
});
