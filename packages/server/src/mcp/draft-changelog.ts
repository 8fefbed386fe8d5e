import type { AdminFeatureRequest } from "@tidings/protocol";
import { z } from "zod";
import { findAppInWorkspace } from "../apps/apps.js";
import { insertEntry } from "../changelog/entries.js";
import { requireCapability } from "../console/capabilities.js";
import { appTag } from "../context.js";
import { getAdminFeatureRequest } from "../feature-requests/admin-records.js";
import { listAdminFeatureRequests } from "../feature-requests/admin-list.js";
import { ApiError } from "../http/errors.js";
import { listColumns } from "../roadmap/columns.js";
import { workspaceLinks } from "./links.js";
import { excerpt } from "./excerpt.js";
import { inField } from "./tool-answers.js";
import { idOf } from "./tool-inputs.js";
import { defineTool } from "./tool.js";

const MAX_REQUESTS = 50;

function refused(field: string | undefined, message: string): ApiError {
  return new ApiError("validation_failed", { message, details: { formErrors: field === undefined ? [message] : [], fieldErrors: field === undefined ? {} : { [field]: [message] } } });
}

/** The release notes' Markdown: an optional intro, then one line per request, its title and the start of its description. */
function releaseBody(intro: string | undefined, requests: readonly AdminFeatureRequest[]): string {
  const lines = requests.map((r) => {
    const about = excerpt(r.description.replace(/\s+/g, " ").trim(), 160);
    return `- **${r.title}**${about === "" ? "" : `: ${about}`}`;
  });
  return [...(intro === undefined || intro.trim() === "" ? [] : [intro.trim(), ""]), ...lines].join("\n");
}

/**
 * Drafts release notes from shipped requests (in a `done` column), linking them to the draft.
 * Never publishes: a person reviews and publishes the draft in the dashboard, where subscribers
 * are mailed.
 */
export const draftChangelogTool = defineTool({
  name: "draft_changelog",
  title: "Draft release notes from shipped requests",
  description:
    "Creates an unpublished draft release (changelog entry) for an app from shipped feature requests, those in a roadmap column of kind `done`, and links them to it. " +
    "Without `requestIds` it takes the app's shipped requests that no release links yet (up to 50, newest first). " +
    "The draft is never published by this tool: a person reviews, edits and publishes it in the dashboard (its `dashboardUrl`).",
  writes: true,
  input: {
    appId: idOf("app"),
    requestIds: z.array(idOf("fr")).min(1).max(MAX_REQUESTS).optional().describe("Shipped requests to include; default: the shipped requests no release links yet"),
    title: z.string().trim().min(1).max(200).optional().describe("Default: What's new (in <versionLabel>)"),
    versionLabel: z.string().trim().min(1).max(64).optional(),
    intro: z.string().max(5000).optional().describe("A paragraph placed before the list"),
  },
  async run({ ctx, access }, input) {
    requireCapability(access.role, "content.manage");
    const db = ctx.db.kysely;
    const ws = access.workspaceId;
    const app = await inField("appId", findAppInWorkspace(db, ws, input.appId));
    const done = new Set((await listColumns(db, app.id)).filter((c) => c.kind === "done").map((c) => c.id));

    let requests: AdminFeatureRequest[];
    if (input.requestIds !== undefined) {
      requests = [];
      for (const id of new Set(input.requestIds)) {
        const request = await inField("requestIds", getAdminFeatureRequest(db, ws, id));
        if (request.appId !== app.id) throw refused("requestIds", `${id} is a request of another app`);
        if (request.mergedIntoId !== null) throw refused("requestIds", `${id} is merged into ${request.mergedIntoId}`);
        if (request.columnId === null || !done.has(request.columnId)) throw refused("requestIds", `${id} is not shipped (not in a done column)`);
        requests.push(request);
      }
    } else {
      const shipped = await Promise.all(
        [...done].map(async (columnId) => {
          const page = await listAdminFeatureRequests(db, { workspaceId: ws, appId: app.id, limit: MAX_REQUESTS, offset: 0, q: undefined, columnId, versionId: undefined, boardId: undefined, tagIds: [], fieldFilters: [], moderation: "approved", sort: "newest", payerOnly: false, includeMerged: false, currency: "USD", minCompanyRevenueCents: undefined, minCompanies: undefined, plan: undefined, companyId: undefined, });
          return page.requests;
        }),
      );
      const all = shipped.flat();
      const linked = all.length === 0 ? [] : await db.selectFrom("changelogEntryRequests").select("featureRequestId").where("featureRequestId", "in", all.map((r) => r.id)).execute();
      const released = new Set(linked.map((l) => l.featureRequestId));
      requests = all.filter((r) => !released.has(r.id)).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, MAX_REQUESTS);
      if (requests.length === 0) throw refused(undefined, "This app has no shipped request that a release does not already link");
    }

    const title = input.title ?? (input.versionLabel === undefined ? "What's new" : `What's new in ${input.versionLabel}`);
    const entry = await db.transaction().execute((trx) =>
      insertEntry(trx, ctx.clock, {
        appId: app.id,
        title,
        body: releaseBody(input.intro, requests),
        versionLabel: input.versionLabel ?? null,
        versionId: null,
        scheduledAt: null,
        linkedRequestIds: requests.map((r) => r.id),
      }),
    );
    await ctx.cache.invalidateTag(appTag(app.id));
    const links = await workspaceLinks(db, ctx.publicBase, ws);
    return {
      entry: {
        id: entry.id,
        appId: entry.appId,
        status: entry.status,
        title: entry.title,
        versionLabel: entry.versionLabel,
        body: entry.body,
        linkedRequests: requests.map((r) => ({ id: r.id, title: r.title, dashboardUrl: links.requestDashboardUrl(r.appId, r.id) })),
        createdAt: entry.createdAt,
        dashboardUrl: links.changelogDashboardUrl(app.id),
      },
      note: "This is an unpublished draft: review and publish it in the dashboard.",
    };
  },
});
