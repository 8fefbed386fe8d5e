import { isoNow } from "../clock.js";
import { createFeatureRequests, type NewFeatureRequest } from "../feature-requests/feature-requests.js";
import type { StoredFieldValues } from "../custom-fields/values.js";
import { displayName } from "./imported-people.js";
import type { RequestRecord } from "./import-records.js";
import { BATCH, type ImportState } from "./import-state.js";

/** A request read and placed, waiting for its batch. */
export interface PendingRequest {
  record: RequestRecord;
  boardId: string;
  tagIds: string[];
  fields: StoredFieldValues;
}

/** Writes a batch of placed requests with their tags, and remembers their source ids. */
export async function writeRequests(state: ImportState, batch: PendingRequest[]): Promise<void> {
  const users = await state.endUsers(
    batch.map((p) => p.record.author),
    batch.map((p) => p.record.createdAt ?? isoNow(state.clock)),
  );
  const inputs = batch.map(({ record: r, boardId, fields }, i): NewFeatureRequest => {
    const target = state.options.resolveStatus(r.status);
    return {
      appId: state.options.appId,
      boardId,
      customFields: fields,
      title: r.title,
      description: r.description,
      approved: true,
      declined: target.declined,
      columnId: target.columnId,
      requesterEndUserId: users[i] ?? null,
      requesterName: displayName(r.author),
      requesterEmail: state.options.keepEmails ? (r.author?.email ?? null) : null,
      createdByAdmin: r.author?.isTeam === true,
      actor: null,
      ...(r.createdAt === null ? {} : { createdAt: r.createdAt }),
      importedVotes: r.votes ?? 0,
      // What the source said, as it said it, whatever the app made of it.
      eventData: {
        importedFrom: state.options.source,
        sourceId: r.sourceId,
        ...(r.board === null ? {} : { board: r.board.name }),
        ...(r.category === null ? {} : { category: r.category.name }),
        ...(r.tags.length > 0 ? { tags: r.tags.map((t) => t.name) } : {}),
      },
    };
  });
  const rows = await createFeatureRequests(state.trx, state.clock, state.dialect, state.options.appId, inputs);
  rows.forEach((row, i) => {
    state.requests.set(batch[i]!.record.sourceId, { id: row.id, fresh: true });
    state.touched.add(row.id);
  });
  state.counts.requests += rows.length;
  const now = isoNow(state.clock);
  const tagged = rows.flatMap((row, i) => batch[i]!.tagIds.map((tagId) => ({ featureRequestId: row.id, tagId, createdAt: now })));
  for (let i = 0; i < tagged.length; i += BATCH) await state.trx.insertInto("featureRequestTags").values(tagged.slice(i, i + BATCH)).execute();
  await state.remember(
    "request",
    rows.map((row, i) => ({ sourceId: batch[i]!.record.sourceId, localId: row.id })),
  );
}
