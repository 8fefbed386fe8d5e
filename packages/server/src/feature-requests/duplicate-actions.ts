import type { DismissDuplicateResult } from "@tidings/protocol";
import { isoNow } from "../clock.js";
import { ApiError } from "../http/errors.js";
import { lockRequests } from "./request-locks.js";
import type { FeatureRequestRow } from "./feature-requests.js";
import { mergeRequests } from "./request-merge.js";
import type { Triage } from "./triage.js";

/**
 * The two requests of a pair named from the app's duplicates queue: 400
 * `duplicate_pair_same_request` when they are one, 404 `feature_request_not_found` when either
 * is not a request of the workspace, 400 `duplicate_pair_other_app` when either belongs to
 * another app.
 */
async function findPair(t: Triage, appId: string, firstId: string, secondId: string): Promise<[FeatureRequestRow, FeatureRequestRow]> {
  if (firstId === secondId) throw new ApiError("duplicate_pair_same_request", { details: { featureRequestId: firstId } });
  const rows = await t.trx
    .selectFrom("featureRequests as fr")
    .innerJoin("apps as a", "a.id", "fr.appId")
    .selectAll("fr")
    .where("fr.id", "in", [firstId, secondId])
    .where("a.workspaceId", "=", t.workspaceId)
    .execute();
  const first = rows.find((r) => r.id === firstId);
  const second = rows.find((r) => r.id === secondId);
  if (first === undefined || second === undefined) {
    throw new ApiError("feature_request_not_found", { details: { missingIds: [firstId, secondId].filter((id) => !rows.some((r) => r.id === id)) } });
  }
  const elsewhere = rows.find((r) => r.appId !== appId);
  if (elsewhere !== undefined) throw new ApiError("duplicate_pair_other_app", { details: { featureRequestId: elsewhere.id } });
  return [first, second];
}

/**
 * Remembers that two requests of the app are not duplicates of each other, so the queue never
 * offers the pair again. Idempotent: marking a pair again keeps the first `dismissedAt`.
 *
 * @example
 * ```ts
 * await dismissPair(t, appId, ["fr_…", "fr_…"]); // { requestIds: [smaller, larger], dismissedAt }
 * ```
 */
export async function dismissPair(t: Triage, appId: string, ids: readonly [string, string]): Promise<DismissDuplicateResult> {
  await findPair(t, appId, ids[0], ids[1]);
  const [firstId, secondId] = ids[0] < ids[1] ? ids : ([ids[1], ids[0]] as const);
  await t.trx
    .insertInto("duplicateDismissals")
    .values({ firstId, secondId, dismissedBy: t.actor, createdAt: isoNow(t.clock) })
    .onConflict((oc) => oc.columns(["firstId", "secondId"]).doNothing())
    .execute();
  const row = await t.trx
    .selectFrom("duplicateDismissals")
    .select("createdAt")
    .where("firstId", "=", firstId)
    .where("secondId", "=", secondId)
    .executeTakeFirstOrThrow();
  return { requestIds: [firstId, secondId], dismissedAt: row.createdAt };
}

/**
 * Merges one request of a pair into the other with the console's merge (votes, comments and
 * followers carry over; see `mergeRequests`). A request merged meanwhile is 409
 * `request_already_merged`, and nothing is written.
 */
export async function mergePair(t: Triage, appId: string, duplicateId: string, intoId: string): Promise<{ appId: string }> {
  // Locked before they are read: a merge racing this one sees the other's outcome.
  await lockRequests(t.trx, t.dialect, [duplicateId, intoId]);
  const pair = await findPair(t, appId, duplicateId, intoId);
  const merged = pair.find((r) => r.mergedIntoId !== null);
  if (merged !== undefined) throw new ApiError("request_already_merged", { details: { featureRequestId: merged.id, mergedIntoId: merged.mergedIntoId } });
  return mergeRequests(t, duplicateId, intoId);
}
