import type { VoteRecord } from "./import-records.js";
import type { ImportState } from "./import-state.js";

/** Writes a batch of votes on the requests they name; the same voter twice on a request counts once. */
export async function writeVotes(state: ImportState, batch: VoteRecord[]): Promise<void> {
  const placed: Array<{ record: VoteRecord; requestId: string }> = [];
  for (const v of batch) {
    const request = state.requests.get(v.requestSourceId);
    if (request === undefined) {
      if (!state.unplaced.has(v.requestSourceId)) state.options.onIssue(v.at, `vote on request "${v.requestSourceId}", which is not in the import`);
    } else placed.push({ record: v, requestId: request.id });
  }
  const voters = await state.endUsers(
    placed.map((p) => p.record.voter),
    placed.map((p) => p.record.createdAt),
  );
  const rows = new Map<string, { featureRequestId: string; endUserId: string; shipNotifyEmail: null; createdAt: string }>();
  placed.forEach((p, i) => {
    const endUserId = voters[i];
    if (endUserId === null || endUserId === undefined) {
      state.options.onIssue(p.record.at, "vote without a voter id or email");
      return;
    }
    // The same voter twice on one request counts once, as it would here.
    rows.set(`${p.requestId} ${endUserId}`, { featureRequestId: p.requestId, endUserId, shipNotifyEmail: null, createdAt: p.record.createdAt });
  });
  if (rows.size === 0) return;
  const inserted = await state.trx
    .insertInto("featureRequestVotes")
    .values([...rows.values()])
    .onConflict((oc) => oc.columns(["featureRequestId", "endUserId"]).doNothing())
    .returning("featureRequestId")
    .execute();
  for (const r of inserted) state.touched.add(r.featureRequestId);
  state.counts.votes += inserted.length;
  state.counts.votesExisting += rows.size - inserted.length;
}
