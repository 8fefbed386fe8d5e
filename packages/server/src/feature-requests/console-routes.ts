import { findSegmentInWorkspace, segmentFilter } from "../segments/segments.js";
import {
  AdminFeatureRequestDetailSchema,
  AdminFeatureRequestListQuerySchema,
  AdminFeatureRequestListSchema,
  AdminFeatureRequestSchema,
  BulkModerateBodySchema,
  BulkModerateResultSchema,
  CreateAdminFeatureRequestBodySchema,
  MergeFeatureRequestBodySchema,
  MergeFeatureRequestResultSchema,
  UpdateAdminFeatureRequestBodySchema,
} from "@tidings/protocol";
import Type from "typebox";
import { findAppInWorkspace } from "../apps/apps.js";
import { workspaceAccess } from "../console/auth.js";
import type { Capability } from "../console/capabilities.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { getAdminFeatureRequest } from "./admin-records.js";
import { getAdminFeatureRequestDetail } from "./admin-detail.js";
import { listAdminFeatureRequests } from "./admin-list.js";
import { fieldFilters as customFieldFilters } from "../custom-fields/filters.js";
import { findCompanyInWorkspace } from "../companies/companies.js";
import { reportedCurrency } from "../companies/company-report.js";
import { createTeamRequest, deleteRequest, updateRequest } from "./request-edits.js";
import { mergeRequests } from "./request-merge.js";
import { moderate, moderateMany } from "./request-moderation.js";
import { RequestParams, tags, triageCommand } from "./triage-command.js";

const Success = Type.Object({ success: Type.Boolean() });

/**
 * Triage of feature requests: list, create, edit, moderate, merge and delete (their comments:
 * comment-console-routes.ts). Reads need membership; writes need `triage` (moderation, moving,
 * merging) or `content.manage` (text); deleting a request needs `app.configure`. Every write
 * runs in one transaction, then drops the app's cached public answers.
 */
export function featureRequestConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  const command = triageCommand(ctx);

  app.get(
    "/workspaces/:wsId/feature-requests",
    {
      schema: {
        tags,
        summary: "List the workspace's feature requests for triage",
        description:
          "Pending and declined requests included; merged duplicates only with `includeMerged=true`. `q` is a case- and accent-insensitive substring of title or description. `payer=only` keeps requests with a paying voter or a paying submitter. " +
          "Company revenue counts each voting company once and each paying voter without a company alone, per currency, never converted: `sort=company_revenue` and `minCompanyRevenue` count in `currency` (default USD); `sort=company_count` and `minCompanies` count voting companies; `plan` keeps requests with a voter on that plan (their company's, else their own); `companyId` keeps requests a user of that company voted for; `segmentId` keeps requests at least one member of that segment voted for. " +
          "`field.<key>=<value>` (with `appId`) keeps requests whose custom field equals the value (holds the option, for a multi select); repeat a parameter to ask for several values, every one must match.",
        params: WorkspaceParams,
        querystring: AdminFeatureRequestListQuerySchema,
        response: { 200: AdminFeatureRequestListSchema },
      },
    },
    async (request) => {
      const { wsId } = request.params;
      await workspaceAccess(ctx, request, wsId);
      const query = request.query;
      if (query.appId !== undefined) await findAppInWorkspace(db, wsId, query.appId);
      const fieldFilters = await customFieldFilters(db, query.appId, query);
      return listAdminFeatureRequests(db, {
        workspaceId: wsId,
        appId: query.appId,
        limit: query.limit ?? 50,
        offset: query.offset ?? 0,
        q: query.q,
        columnId: query.columnId,
        versionId: query.versionId,
        boardId: query.boardId,
        tagIds: query.tagId === undefined ? [] : Array.isArray(query.tagId) ? query.tagId : [query.tagId],
        fieldFilters,
        moderation: query.moderation,
        sort: query.sort ?? "newest",
        payerOnly: query.payer === "only",
        includeMerged: query.includeMerged === true,
        currency: query.currency === undefined ? "USD" : reportedCurrency(query.currency),
        minCompanyRevenueCents: query.minCompanyRevenue === undefined ? undefined : Math.round(query.minCompanyRevenue * 100),
        minCompanies: query.minCompanies,
        plan: query.plan,
        companyId: query.companyId === undefined ? undefined : (await findCompanyInWorkspace(db, wsId, query.companyId)).id,
        segment: query.segmentId === undefined ? undefined : segmentFilter(await findSegmentInWorkspace(db, wsId, query.segmentId)),
      });
    },
  );

  app.post(
    "/workspaces/:wsId/feature-requests",
    {
      schema: {
        tags,
        summary: "Create an approved request on behalf of the team",
        description: "Goes to the review column unless `columnId` or `columnSlug` names a column of the app.",
        params: WorkspaceParams,
        body: CreateAdminFeatureRequestBodySchema,
        response: { 201: AdminFeatureRequestSchema },
      },
    },
    async (request, reply) => {
      const { wsId } = request.params;
      const { appId, ...input } = request.body;
      const { id } = await command(request, wsId, ["content.manage"], async (t) => {
        await findAppInWorkspace(t.trx, wsId, appId);
        const row = await createTeamRequest(t, appId, input);
        return { id: row.id, appIds: [appId] };
      });
      return reply.code(201).send(await getAdminFeatureRequest(db, wsId, id));
    },
  );

  app.post(
    "/workspaces/:wsId/feature-requests/bulk-moderate",
    {
      schema: {
        tags,
        summary: "Approve or decline up to 100 requests in one transaction",
        description: "Every id must be a request of the workspace, else 404 and nothing changes. Requests already in the state are not counted.",
        params: WorkspaceParams,
        body: BulkModerateBodySchema,
        response: { 200: BulkModerateResultSchema },
      },
    },
    async (request) => {
      const state = request.body.action === "approve" ? "approved" : "declined";
      const { updatedIds } = await command(request, request.params.wsId, ["triage"], (t) => moderateMany(t, request.body.ids, state));
      return { updatedCount: updatedIds.length, updatedIds };
    },
  );

  app.get(
    "/workspaces/:wsId/feature-requests/:id",
    {
      schema: {
        tags,
        summary: "A request with its history and voters",
        params: RequestParams,
        response: { 200: AdminFeatureRequestDetailSchema },
      },
    },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      return getAdminFeatureRequestDetail(db, request.params.wsId, request.params.id);
    },
  );

  app.put(
    "/workspaces/:wsId/feature-requests/:id",
    {
      schema: {
        tags,
        summary: "Edit, move, re-version, approve or decline a request, or change its custom field values",
        description:
          "A column or version must belong to the request's app (else 404 `column_not_found` / `version_not_found`). Entering a done column logs `shipped` once per request. `approved: false` declines. " +
          "`fields` changes the custom field values it names (null clears one), each checked against the field its board asks for; the others keep their stored values.",
        params: RequestParams,
        body: UpdateAdminFeatureRequestBodySchema,
        response: { 200: AdminFeatureRequestSchema },
      },
    },
    async (request) => {
      const { wsId, id } = request.params;
      const body = request.body;
      const capabilities: Capability[] = [];
      if (body.title !== undefined || body.description !== undefined || body.fields !== undefined) capabilities.push("content.manage");
      if (body.columnId !== undefined || body.columnSlug !== undefined || body.versionId !== undefined || body.approved !== undefined) {
        capabilities.push("triage");
      }
      await command(request, wsId, capabilities, async (t) => ({ appIds: [(await updateRequest(t, id, body)).appId] }));
      return getAdminFeatureRequest(db, wsId, id);
    },
  );

  for (const [action, state] of [
    ["approve", "approved"],
    ["decline", "declined"],
  ] as const) {
    app.post(
      `/workspaces/:wsId/feature-requests/:id/${action}`,
      {
        schema: {
          tags,
          summary: action === "approve" ? "Approve a request: it becomes public" : "Decline a request: it stays hidden from the public",
          params: RequestParams,
          response: { 200: AdminFeatureRequestSchema },
        },
      },
      async (request) => {
        const { wsId, id } = request.params;
        await command(request, wsId, ["triage"], async (t) => ({ appIds: [(await moderate(t, id, state)).appId] }));
        return getAdminFeatureRequest(db, wsId, id);
      },
    );
  }

  app.post(
    "/workspaces/:wsId/feature-requests/:id/merge",
    {
      schema: {
        tags,
        summary: "Merge a duplicate into another request of the same app",
        description:
          "Votes move (once per end user), comments move, and the duplicate keeps `mergedIntoId` and disappears from public listing, search and GETs. Refused with 400 `validation_failed` for the request itself, another app's request, or a merged request.",
        params: RequestParams,
        body: MergeFeatureRequestBodySchema,
        response: { 200: MergeFeatureRequestResultSchema },
      },
    },
    async (request) => {
      const { wsId, id } = request.params;
      const { intoId } = request.body;
      await command(request, wsId, ["triage"], async (t) => ({ appIds: [(await mergeRequests(t, id, intoId)).appId] }));
      const [duplicate, target] = await Promise.all([getAdminFeatureRequest(db, wsId, id), getAdminFeatureRequest(db, wsId, intoId)]);
      return { duplicate, target };
    },
  );

  app.delete(
    "/workspaces/:wsId/feature-requests/:id",
    {
      schema: { tags, summary: "Delete a request with its votes and comments", params: RequestParams, response: { 200: Success } },
    },
    async (request) => {
      const { wsId, id } = request.params;
      await command(request, wsId, ["app.configure"], async (t) => ({ appIds: [(await deleteRequest(t, id)).appId] }));
      return { success: true };
    },
  );
}
