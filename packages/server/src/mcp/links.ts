import { portalPath } from "@tidings/client";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

/** Where a tool's results point: the public portal and the dashboard on `PUBLIC_URL`. */
export interface Links {
  /** The public page of an approved request, which signed-out readers may see when its board is public. */
  requestPortalUrl(appId: string, request: { id: string; title: string }): string;
  /** The request in the dashboard. */
  requestDashboardUrl(appId: string, requestId: string): string;
  /** The app's releases in the dashboard, where drafts are reviewed and published. */
  changelogDashboardUrl(appId: string): string;
  /** The public page of a published release. */
  releasePortalUrl(appId: string, entry: { id: string; title: string }): string;
  /** The workspace's feedback inbox in the dashboard. */
  feedbackDashboardUrl(): string;
  /** A company's page in the dashboard: its users and their votes, comments and feedback. */
  companyDashboardUrl(appId: string, companyId: string): string;
  /** The app's portal home. */
  appPortalUrl(appId: string): string;
}

/**
 * The links of one workspace's results, as the webhooks build them (`portalPath` under the public
 * base): app keys are read once per tool call.
 *
 * @example
 * ```ts
 * const links = await workspaceLinks(db, "https://feedback.example.com", wsId);
 * links.requestPortalUrl(appId, { id, title: "Dark mode" }); // "https://feedback.example.com/p/app_…/requests/fr_…-dark-mode"
 * ```
 */
export async function workspaceLinks(db: Kysely<Database>, base: string, workspaceId: string): Promise<Links> {
  const apps = await db.selectFrom("apps").select(["id", "appKey"]).where("workspaceId", "=", workspaceId).execute();
  const keys = new Map(apps.map((a) => [a.id, a.appKey]));
  const key = (appId: string) => keys.get(appId) ?? appId;
  const dashboard = (path: string) => `${base}/admin/w/${workspaceId}${path}`;
  return {
    requestPortalUrl: (appId, request) => `${base}${portalPath(key(appId), { screen: "request", id: request.id }, request.title)}`,
    requestDashboardUrl: (appId, requestId) => dashboard(`/a/${appId}/requests/${requestId}`),
    changelogDashboardUrl: (appId) => dashboard(`/a/${appId}/changelog`),
    releasePortalUrl: (appId, entry) => `${base}${portalPath(key(appId), { screen: "release", id: entry.id }, entry.title)}`,
    feedbackDashboardUrl: () => dashboard("/feedback"),
    companyDashboardUrl: (appId, companyId) => dashboard(`/a/${appId}/companies/${companyId}`),
    appPortalUrl: (appId) => `${base}${portalPath(key(appId), { screen: "home" })}`,
  };
}
