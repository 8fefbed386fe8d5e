import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { ChangelogEntriesTable, Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { findVersionOfApp } from "../roadmap/versions.js";

export type EntryRow = Selectable<ChangelogEntriesTable>;

/** An entry of a workspace, or 404 `changelog_entry_not_found`. */
export async function findEntryInWorkspace(db: Kysely<Database>, workspaceId: string, id: string): Promise<EntryRow> {
  const row = await db
    .selectFrom("changelogEntries as e")
    .innerJoin("apps as a", "a.id", "e.appId")
    .selectAll("e")
    .where("e.id", "=", id)
    .where("a.workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("changelog_entry_not_found");
  return row;
}

/** Replaces an entry's links; every id must be a request of the entry's app (else 404, nothing written). */
export async function setLinks(trx: Kysely<Database>, entryId: string, appId: string, ids: readonly string[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length > 0) {
    const found = await trx.selectFrom("featureRequests").select("id").where("appId", "=", appId).where("id", "in", unique).execute();
    if (found.length !== unique.length) throw new ApiError("feature_request_not_found");
  }
  await trx.deleteFrom("changelogEntryRequests").where("entryId", "=", entryId).execute();
  if (unique.length > 0) {
    await trx
      .insertInto("changelogEntryRequests")
      .values(unique.map((featureRequestId, position) => ({ entryId, featureRequestId, position })))
      .execute();
  }
}

/**
 * The version and label an entry gets from a body. A `versionId` must be a version of `appId`
 * whatever else the body holds (else 404 `version_not_found`, nothing written); a blank or
 * absent label falls back to that version's. `current` is the entry being edited: fields the body
 * leaves out keep its values.
 */
export async function entryVersion(
  db: Kysely<Database>,
  appId: string,
  body: { versionId?: string | null; versionLabel?: string | null },
  current?: Pick<EntryRow, "versionId" | "versionLabel">,
): Promise<{ versionId: string | null; versionLabel: string | null }> {
  const named = body.versionId === undefined || body.versionId === null ? undefined : await findVersionOfApp(db, appId, body.versionId);
  const versionId = body.versionId === undefined ? (current?.versionId ?? null) : body.versionId;
  if (current !== undefined && body.versionLabel === undefined && named === undefined) return { versionId, versionLabel: current.versionLabel };
  return { versionId, versionLabel: (body.versionLabel?.trim() || null) ?? named?.label ?? null };
}

/**
 * Writes a new release with its linked requests (every one a request of the app, else 404 and
 * nothing written): a draft, or scheduled when `scheduledAt` is given. Publishing is the caller's
 * next step, never this one's.
 *
 * @example
 * ```ts
 * const draft = await insertEntry(trx, clock, { appId, title: "What's new", body, versionLabel: null, versionId: null, scheduledAt: null, linkedRequestIds: [id] });
 * draft.status; // "draft"
 * ```
 */
export async function insertEntry(
  trx: Kysely<Database>,
  clock: Clock,
  input: Pick<EntryRow, "appId" | "title" | "body" | "versionLabel" | "versionId" | "scheduledAt"> & { linkedRequestIds: readonly string[]; emailSegmentId?: string | null },
): Promise<EntryRow> {
  const now = isoNow(clock);
  const row: EntryRow = {
    id: newId("cl", clock.now()),
    appId: input.appId,
    title: input.title,
    body: input.body,
    versionLabel: input.versionLabel,
    versionId: input.versionId,
    status: input.scheduledAt === null ? "draft" : "scheduled",
    scheduledAt: input.scheduledAt,
    publishedAt: null,
    notifiedAt: null,
    emailSegmentId: input.emailSegmentId ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("changelogEntries").values(row).execute();
  await setLinks(trx, row.id, row.appId, input.linkedRequestIds);
  return row;
}
