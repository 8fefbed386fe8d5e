import type { Kysely, SelectQueryBuilder } from "kysely";
import type { Database } from "../db/schema.js";
import type { ArchiveHeader, ArchiveTable, LooseDb } from "./archive-format.js";

/** What to export: one app (by its key) or every app of a workspace (by its slug). */
export type ExportScope = { appKey: string } | { workspaceSlug: string };

/** Thrown when the app or workspace to export does not exist. */
export class ExportScopeNotFound extends Error {
  constructor(readonly scope: ExportScope) {
    super("appKey" in scope ? `No app with key "${scope.appKey}"` : `No workspace with slug "${scope.workspaceSlug}"`);
    this.name = "ExportScopeNotFound";
  }
}

/** The rows an export reaches: its workspace and apps, and how its header names them. */
export interface ResolvedScope {
  workspaceId: string;
  appIds: string[];
  header: ArchiveHeader["scope"];
}

/** The workspace and apps `scope` names; throws {@link ExportScopeNotFound} when there is none. */
export async function resolveScope(db: Kysely<Database>, scope: ExportScope): Promise<ResolvedScope> {
  if ("appKey" in scope) {
    const app = await db.selectFrom("apps").select(["id", "workspaceId"]).where("appKey", "=", scope.appKey).executeTakeFirst();
    if (app === undefined) throw new ExportScopeNotFound(scope);
    return { workspaceId: app.workspaceId, appIds: [app.id], header: { kind: "app", appKey: scope.appKey } };
  }
  const ws = await db.selectFrom("workspaces").select("id").where("slug", "=", scope.workspaceSlug).executeTakeFirst();
  if (ws === undefined) throw new ExportScopeNotFound(scope);
  const apps = await db.selectFrom("apps").select("id").where("workspaceId", "=", ws.id).orderBy("id").execute();
  return { workspaceId: ws.id, appIds: apps.map((a) => a.id), header: { kind: "workspace", slug: scope.workspaceSlug } };
}

type Query = SelectQueryBuilder<Record<string, Record<string, unknown>>, string, object>;

/** Narrows a table's query to the rows of the exported apps. */
export function inScope(db: LooseDb, table: ArchiveTable, query: Query, scope: ResolvedScope): Query {
  // An empty `in ()` is not valid SQL everywhere: a workspace without apps matches nothing.
  const appIds = scope.appIds.length === 0 ? [""] : scope.appIds;
  switch (table) {
    case "workspaces":
      return query.where("id", "=", scope.workspaceId);
    case "apps":
      return query.where("id", "in", appIds);
    case "featureRequestVotes":
    case "featureRequestComments":
    case "featureRequestTags":
      return query.where("featureRequestId", "in", db.selectFrom("featureRequests").select("id").where("appId", "in", appIds));
    case "duplicateDismissals":
      // A pair is of one app: its first request names it.
      return query.where("firstId", "in", db.selectFrom("featureRequests").select("id").where("appId", "in", appIds));
    case "changelogEntryRequests":
      return query.where("entryId", "in", db.selectFrom("changelogEntries").select("id").where("appId", "in", appIds));
    case "uploads":
      // Feedback attachments; uploads not attached to a submission are swept within a day anyway.
      return query.where("appId", "in", appIds).where("submissionId", "is not", null).where("status", "=", "uploaded");
    default:
      return query.where("appId", "in", appIds);
  }
}
