import { isoNow } from "../clock.js";
import { unindex } from "../search/search-index.js";
import { lockRequests } from "./request-locks.js";
import { recountComments, recountVotes } from "./recounts.js";
import { moveFollowers } from "./followers.js";
import { fieldError, findRequestInWorkspace, triageEvent, type Triage } from "./triage.js";

/**
 * Merges duplicate `id` into `intoId` (same app, not the same, neither already merged): votes
 * move over counted once per end user, imported votes, comments and followers move (see
 * `moveFollowers`), duplicates previously
 * merged into `id` now point at `intoId`, both counts are recomputed, both requests log
 * `merged`, and the duplicate leaves the search index.
 */
export async function mergeRequests(t: Triage, id: string, intoId: string): Promise<{ appId: string }> {
  if (id === intoId) throw fieldError("intoId", "A request cannot be merged into itself");
  // Both rows, against votes and comments racing in while they move and are recounted.
  await lockRequests(t.trx, t.dialect, [id, intoId]);
  const duplicate = await findRequestInWorkspace(t.trx, t.workspaceId, id);
  const target = await findRequestInWorkspace(t.trx, t.workspaceId, intoId);
  if (duplicate.mergedIntoId !== null) throw fieldError("id", "This request is already merged into another one");
  if (target.appId !== duplicate.appId) throw fieldError("intoId", "Requests of different apps cannot be merged");
  if (target.mergedIntoId !== null) throw fieldError("intoId", "The target is itself merged into another request");

  const votesOnTarget = t.trx.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", target.id);
  await t.trx.deleteFrom("featureRequestVotes").where("featureRequestId", "=", duplicate.id).where("endUserId", "in", votesOnTarget).execute();
  await t.trx.updateTable("featureRequestVotes").set({ featureRequestId: target.id }).where("featureRequestId", "=", duplicate.id).execute();
  await t.trx.updateTable("featureRequestComments").set({ featureRequestId: target.id }).where("featureRequestId", "=", duplicate.id).execute();
  // Feedback linked to the duplicate is evidence for the target (its votes moved above, still credited to the links).
  await t.trx.updateTable("submissions").set({ featureRequestId: target.id }).where("featureRequestId", "=", duplicate.id).execute();
  await t.trx.updateTable("featureRequests").set({ mergedIntoId: target.id }).where("mergedIntoId", "=", duplicate.id).execute();
  const now = isoNow(t.clock);
  await moveFollowers(t.trx, duplicate.id, target.id, now);
  await t.trx
    .updateTable("featureRequests")
    .set({ mergedIntoId: target.id, importedVotes: 0, updatedAt: now })
    .where("id", "=", duplicate.id)
    .execute();
  await t.trx
    .updateTable("featureRequests")
    .set({ importedVotes: target.importedVotes + duplicate.importedVotes, updatedAt: now })
    .where("id", "=", target.id)
    .execute();
  for (const fr of [duplicate.id, target.id]) {
    await recountVotes(t.trx, fr);
    await recountComments(t.trx, fr);
  }
  await triageEvent(t, duplicate, "merged", { intoId: target.id });
  await triageEvent(t, target, "merged", { fromId: duplicate.id });
  await unindex(t.trx, t.dialect, duplicate.id);
  return { appId: target.appId };
}
