import { ADMIN_FEATURE_REQUEST_SORTS, MODERATION_STATES } from "@tidings/protocol";
import { z } from "zod";
import { findAppInWorkspace } from "../apps/apps.js";
import { findBoardInWorkspace } from "../boards/boards.js";
import { listAdminFeatureRequests } from "../feature-requests/admin-records.js";
import { findColumnInWorkspace } from "../roadmap/columns.js";
import { findTagInWorkspace } from "../tags/tags.js";
import { workspaceLinks } from "./links.js";
import { requestShape } from "./request-shape.js";
import { defineTool, idOf, inField } from "./tool.js";

/** Finds the workspace's requests the way the dashboard's list does, ranked by demand. */
export const searchRequestsTool = defineTool({
  name: "search_requests",
  title: "Search feature requests",
  description:
    "Searches the workspace's feature requests (merged duplicates left out) by app, board, roadmap column, tags and text (a case- and accent-insensitive substring of title or description). " +
    "Sorts by `votes` (default), `revenue` (the monthly revenue of paying voters), `paying_voters` or `newest`. " +
    "Each result has its id, votes, paying voters and their revenue, column, tags and links to the portal and the dashboard. Ids come from list_apps.",
  writes: false,
  input: {
    appId: idOf("app").optional().describe("Only this app's requests"),
    boardId: idOf("brd").optional().describe("Only this board's requests"),
    columnId: idOf("col").optional().describe("Only requests in this roadmap column"),
    tagIds: z.array(idOf("tag")).max(5).optional().describe("Requests carrying every one of these tags"),
    text: z.string().max(200).optional().describe("Words the title or description holds"),
    moderation: z.enum(MODERATION_STATES).optional().describe("pending (awaiting review), approved (public) or declined"),
    payingOnly: z.boolean().optional().describe("Only requests with a paying voter or a paying submitter"),
    sort: z.enum(ADMIN_FEATURE_REQUEST_SORTS).default("votes"),
    limit: z.number().int().min(1).max(50).default(20),
    offset: z.number().int().min(0).max(10_000).default(0),
  },
  async run({ ctx, access }, input) {
    const db = ctx.db.kysely;
    const ws = access.workspaceId;
    if (input.appId !== undefined) await inField("appId", findAppInWorkspace(db, ws, input.appId));
    if (input.boardId !== undefined) await inField("boardId", findBoardInWorkspace(db, ws, input.boardId));
    if (input.columnId !== undefined) await inField("columnId", findColumnInWorkspace(db, ws, input.columnId));
    for (const tagId of input.tagIds ?? []) await inField("tagIds", findTagInWorkspace(db, ws, tagId));
    const page = await listAdminFeatureRequests(db, {
      workspaceId: ws,
      appId: input.appId,
      limit: input.limit,
      offset: input.offset,
      q: input.text,
      columnId: input.columnId,
      versionId: undefined,
      boardId: input.boardId,
      tagIds: input.tagIds ?? [],
      fieldFilters: [],
      moderation: input.moderation,
      sort: input.sort,
      payerOnly: input.payingOnly === true,
      includeMerged: false,
      // Company filters are the console's; the tool does not offer them yet.
      currency: "USD",
      minCompanyRevenueCents: undefined,
      minCompanies: undefined,
      plan: undefined,
      companyId: undefined,
    });
    const links = await workspaceLinks(db, ctx.publicBase, ws);
    return {
      total: page.total,
      offset: input.offset,
      hasMore: input.offset + page.requests.length < page.total,
      requests: page.requests.map((r) => requestShape(r, links)),
    };
  },
});
