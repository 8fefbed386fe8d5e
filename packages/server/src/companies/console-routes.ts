import { CompanyDetailSchema, CompanyListQuerySchema, CompanyListSchema, CompanyParams, ErrorBodySchema } from "@tidings/protocol";
import { AppParams } from "../apps/console-routes.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { workspaceAccess } from "../console/auth.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { listCompanies } from "./companies.js";
import { companyDetail } from "./company-detail.js";

const tags = ["console: companies"];

/** An app's companies and a company's page (its users, votes, comments, feedback). Any member may read. */
export function companyConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get(
    "/workspaces/:wsId/apps/:appId/companies",
    {
      schema: {
        tags,
        summary: "Companies of an app, as the host reported them",
        description:
          "`sort`: `mrr` (default, highest first, currencies not converted), `name`, `users`, `newest`; `q` matches the name or the host's id; `plan` keeps one plan; `limit` 1–200 (default 50). `mrr` is in currency units.",
        params: AppParams,
        querystring: CompanyListQuerySchema,
        response: { 200: CompanyListSchema, 404: ErrorBodySchema },
      },
    },
    async (request) => {
      const { wsId, appId } = request.params;
      await workspaceAccess(ctx, request, wsId);
      await findAppInWorkspace(db, wsId, appId);
      const { limit = 50, offset = 0, sort = "mrr", q, plan } = request.query;
      return listCompanies(db, { appId, limit, offset, sort, q, plan });
    },
  );

  app.get(
    "/workspaces/:wsId/companies/:companyId",
    {
      schema: {
        tags,
        summary: "A company with its users and their votes, comments and feedback",
        description: "Users most recently seen first; votes, comments (hidden ones marked) and feedback newest first; 200 of each at most.",
        params: CompanyParams,
        response: { 200: CompanyDetailSchema, 404: ErrorBodySchema },
      },
    },
    async (request) => {
      const { wsId, companyId } = request.params;
      await workspaceAccess(ctx, request, wsId);
      return companyDetail(db, wsId, companyId);
    },
  );
}
