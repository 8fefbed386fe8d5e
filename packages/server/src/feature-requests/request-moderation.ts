import type { ModerationState } from "@tidings/protocol";
import { isoNow } from "../clock.js";
import { ApiError } from "../http/errors.js";
import { reindex } from "../search/search-index.js";
import type { FeatureRequestRow } from "./feature-requests.js";
import { findRequestInWorkspace, triageEvent, type Triage } from "./triage.js";

/**
 * Moves a request to a moderation state, stamping `approvedAt` on approval and logging
 * `approved`/`declined`. Answers false (and writes nothing) when it is already there.
 */
export async function applyModeration(t: Triage, row: FeatureRequestRow, state: Exclude<ModerationState, "pending">): Promise<boolean> {
  if (row.moderation === state) return false;
  const now = isoNow(t.clock);
  await t.trx
    .updateTable("featureRequests")
    .set({ moderation: state, approvedAt: state === "approved" ? now : null, updatedAt: now })
    .where("id", "=", row.id)
    .execute();
  // Public search finds approved requests only: the index learns the new state at once.
  await reindex(t.trx, t.dialect, row.id);
  await triageEvent(t, row, state, { from: row.moderation });
  return true;
}

/** Approves or declines one request of the workspace. */
export async function moderate(t: Triage, id: string, state: "approved" | "declined"): Promise<FeatureRequestRow> {
  const row = await findRequestInWorkspace(t.trx, t.workspaceId, id);
  await applyModeration(t, row, state);
  return row;
}

/**
 * Approves or declines many requests at once. Every id must be a request of the workspace
 * (else 404 and nothing changes); the answer lists those whose state changed.
 */
export async function moderateMany(
  t: Triage,
  ids: readonly string[],
  state: "approved" | "declined",
): Promise<{ updatedIds: string[]; appIds: string[] }> {
  const unique = [...new Set(ids)];
  const rows = await t.trx
    .selectFrom("featureRequests as fr")
    .innerJoin("apps as a", "a.id", "fr.appId")
    .selectAll("fr")
    .where("fr.id", "in", unique)
    .where("a.workspaceId", "=", t.workspaceId)
    .execute();
  if (rows.length !== unique.length) {
    const found = new Set(rows.map((r) => r.id));
    throw new ApiError("feature_request_not_found", { details: { missingIds: unique.filter((id) => !found.has(id)) } });
  }
  const updatedIds: string[] = [];
  for (const id of unique) {
    const row = rows.find((r) => r.id === id);
    if (row !== undefined && (await applyModeration(t, row, state))) updatedIds.push(id);
  }
  return { updatedIds, appIds: [...new Set(rows.map((r) => r.appId))] };
}
