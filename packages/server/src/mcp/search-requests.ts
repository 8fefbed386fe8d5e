import { ADMIN_FEATURE_REQUEST_SORTS, MODERATION_STATES } from "@tidings/protocol";
import { z } from "zod";
import { findAppInWorkspace } from "../apps/apps.js";
import { findBoardInWorkspace } from "../boards/boards.js";
import { findCompanyInWorkspace } from "../companies/companies.js";
import { isKnownCurrency } from "../companies/currencies.js";
import { listAdminFeatureRequests } from "../feature-requests/admin-list.js";
import { findColumnInWorkspace } from "../roadmap/columns.js";
import { findTagInWorkspace } from "../tags/tags.js";
import { workspaceLinks } from "./links.js";
import { requestShape } from "./request-shape.js";
import { inField } from "./tool-answers.js";
import { idOf } from "./tool-inputs.js";
import { defineTool } from "./tool.js";

/** Finds the workspace's requests the way the dashboard's list does, ranked by demand. */
export const searchRequestsTool = defineTool({
  name: "search_requests",
  title: "Search feature requests",
  description:
    "Searches the workspace's feature requests (merged duplicates left out) by app, board, roadmap column, tags and text (a case- and accent-insensitive substring of title or description), " +
    "and by the voters' companies: a minimum revenue or number of voting companies, a plan, one company. " +
    "Sorts by `votes` (default); `company_revenue`, the dashboard's revenue ranking: the monthly revenue in `currency` of the voters' accounts, each company once and each paying voter without a company alone; " +
    "`company_count` (voting companies); `revenue` (the paying voters' own monthly revenue added up, whatever their currencies); `paying_voters`; or `newest`. " +
    "Each result has its id, votes, paying voters, voting companies and their revenue per currency, column, tags and links to the portal and the dashboard. Ids come from list_apps.",
  writes: false,
  input: {
    appId: idOf("app").optional().describe("Only this app's requests"),
    boardId: idOf("brd").optional().describe("Only this board's requests"),
    columnId: idOf("col").optional().describe("Only requests in this roadmap column"),
    tagIds: z.array(idOf("tag")).max(5).optional().describe("Requests carrying every one of these tags"),
    text: z.string().max(200).optional().describe("Words the title or description holds"),
    moderation: z.enum(MODERATION_STATES).optional().describe("pending (awaiting review), approved (public) or declined"),
    payingOnly: z.boolean().optional().describe("Only requests with a paying voter or a paying submitter"),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, "an ISO 4217 code (EUR)")
      .transform((code) => code.toUpperCase())
      .refine(isKnownCurrency, "not a currency in use (ISO 4217)")
      .default("USD")
      .describe("What `company_revenue` and `minCompanyRevenue` count in; other currencies are not converted"),
    minCompanyRevenue: z.number().min(0).max(1e12).optional().describe("Requests whose voters' accounts pay at least this much a month in `currency` (currency units)"),
    minCompanies: z.number().int().min(1).max(1_000_000).optional().describe("Requests with at least this many voting companies"),
    plan: z.string().min(1).max(64).optional().describe("Requests with a voter on this plan: their company's, else their own"),
    companyId: idOf("co").optional().describe("Requests a user of this company voted for (co_…, from get_request)"),
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
    if (input.companyId !== undefined) await inField("companyId", findCompanyInWorkspace(db, ws, input.companyId));
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
      currency: input.currency,
      minCompanyRevenueCents: input.minCompanyRevenue === undefined ? undefined : Math.round(input.minCompanyRevenue * 100),
      minCompanies: input.minCompanies,
      plan: input.plan,
      companyId: input.companyId,
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
