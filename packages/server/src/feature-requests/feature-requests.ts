import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import { executeNamed } from "../db/named-statements.js";
import type { Database, FeatureRequestsTable } from "../db/schema.js";
import { newId } from "../ids.js";
import { enabledEndpoints } from "../webhooks/events.js";
import { queueRequestWebhook } from "../webhooks/request-webhooks.js";
import type { StoredFieldValues } from "../custom-fields/values.js";
import { ftsRow } from "../search/search-index.js";
import { indexPrefix, searchText } from "../search/search-text.js";
import { appDefaults, type AppDefaults } from "./app-defaults.js";

export type FeatureRequestRow = Selectable<FeatureRequestsTable>;
/** A request's row as it is inserted: without what the database writes into it (its recent commenters). */
export type NewRequestRow = Omit<FeatureRequestRow, "recentCommenters">;

export interface NewFeatureRequest {
  appId: string;
  title: string;
  description: string;
  approved: boolean;
  requesterEndUserId: string | null;
  requesterName: string | null;
  requesterEmail: string | null;
  createdByAdmin: boolean;
  columnId?: string;
  versionId?: string | null;
  /** The board it goes on; default: the app's default board. */
  boardId?: string;
  /** Who did it, for the event log. */
  actor: string | null;
  /** Importers: when it was created where it came from (also its approval time); default now. */
  createdAt?: string;
  /** Importers: votes counted elsewhere, without a voter here. */
  importedVotes?: number;
  /** Importers: declined rather than approved or pending. */
  declined?: boolean;
  /** Importers: extra details for the `created` event (where it came from, its tags). */
  eventData?: Record<string, unknown>;
  /** Custom field values by field id, already checked (`acceptFields`); default none. */
  customFields?: StoredFieldValues;
}

/**
 * A request as an importer (or a test) brings it: anonymous, not created by the team, approved
 * unless told otherwise.
 *
 * @example
 * ```ts
 * await createFeatureRequests(trx, clock, dialect, appId, [importedRequest(appId, "Dark mode", "Please")]);
 * ```
 */
export function importedRequest(appId: string, title: string, description: string, approved = true): NewFeatureRequest {
  return { appId, title, description, approved, requesterEndUserId: null, requesterName: null, requesterEmail: null, createdByAdmin: false, actor: null };
}

/** Creates a request (in the review column unless told otherwise), indexes it, logs `created` and queues its webhook. */
export async function createFeatureRequest(
  trx: Kysely<Database>,
  clock: Clock,
  dialect: DialectName,
  input: NewFeatureRequest,
  /** The app's defaults when the caller read them already ({@link proposalStart}). */
  defaults?: AppDefaults,
): Promise<NewRequestRow> {
  const { rows, webhooks } = await insertRequests(trx, clock, dialect, input.appId, [input], defaults);
  const row = rows[0]!;
  // One request at a time is a person's (imports go through createFeatureRequests alone and send
  // no webhooks). The insert of its event answered whether the app has an enabled endpoint (as
  // the vote batch and a comment ask): without one there is nothing to queue.
  if (webhooks) await queueRequestWebhook(trx, clock, { featureRequestId: row.id, appId: input.appId, type: "created", actor: input.actor, data: {} });
  return row;
}

/** Rows per multi-row INSERT: well under SQLite's limit of bound parameters. */
const BATCH = 400;

/**
 * Creates many requests of one app in the caller's transaction with a few multi-row statements
 * (importers, seeding, benchmarks): the same rows, search text, index entries and `created`
 * events as one {@link createFeatureRequest} each.
 */
export async function createFeatureRequests(
  trx: Kysely<Database>,
  clock: Clock,
  dialect: DialectName,
  appId: string,
  inputs: readonly NewFeatureRequest[],
): Promise<NewRequestRow[]> {
  return (await insertRequests(trx, clock, dialect, appId, inputs)).rows;
}

/** Where {@link newRequestRow} places a request and what it names in the search text. */
export interface RequestPlace {
  /** The time written when the input brings none. */
  now: string;
  /** The app's review column: where a request without `columnId` goes. */
  review: string;
  /** The app's default board: where a request without `boardId` goes. */
  standardBoard: string;
  /** Column names by id (at least the review column's), for the search text. */
  columnName: ReadonlyMap<string, string>;
  /** Version labels by id, for the search text. */
  versionLabel: ReadonlyMap<string, string>;
}

/**
 * The row a new request is stored as: its id, place, moderation, counts and search text.
 *
 * @example
 * ```ts
 * const row = newRequestRow(clock, appId, input, { now, review, standardBoard, columnName: new Map([[review, "Under review"]]), versionLabel: new Map() });
 * ```
 */
export function newRequestRow(clock: Clock, appId: string, input: NewFeatureRequest, place: RequestPlace): NewRequestRow {
  const columnId = input.columnId ?? place.review;
  const versionId = input.versionId ?? null;
  const createdAt = input.createdAt ?? place.now;
  const importedVotes = input.importedVotes ?? 0;
  return {
    id: newId("fr", clock.now()),
    appId,
    boardId: input.boardId ?? place.standardBoard,
    title: input.title,
    description: input.description,
    columnId,
    versionId,
    moderation: input.declined === true ? "declined" : input.approved ? "approved" : "pending",
    approvedAt: input.approved && input.declined !== true ? createdAt : null,
    mergedIntoId: null,
    requesterEndUserId: input.requesterEndUserId,
    requesterName: input.requesterName,
    requesterEmail: input.requesterEmail,
    createdByAdmin: input.createdByAdmin ? 1 : 0,
    voteCount: importedVotes,
    importedVotes,
    commentCount: 0,
    searchTitle: searchText(input.title),
    searchBody: searchText(input.description),
    searchExtra: searchText(`${place.columnName.get(columnId) ?? ""} ${versionId === null ? "" : (place.versionLabel.get(versionId) ?? "")}`),
    customFields: JSON.stringify(input.customFields ?? {}),
    createdAt,
    updatedAt: createdAt,
  };
}

/**
 * {@link createFeatureRequests}' work, answering also whether the app has an enabled webhook
 * endpoint when the request is one (`webhooks` is true otherwise).
 */
async function insertRequests(
  trx: Kysely<Database>,
  clock: Clock,
  dialect: DialectName,
  appId: string,
  inputs: readonly NewFeatureRequest[],
  read?: AppDefaults,
): Promise<{ rows: NewRequestRow[]; webhooks: boolean }> {
  if (inputs.some((input) => input.appId !== appId)) throw new Error("createFeatureRequests: every request must belong to appId");
  const now = isoNow(clock);
  // The review column and the default board in one statement; the names of other columns and of
  // versions only when a request is placed in one (imports): a proposal needs neither.
  const defaults = read ?? (await appDefaults.first(trx, { appId }));
  if (defaults === undefined) throw new Error(`createFeatureRequests: app ${appId} has no review column or no default board`);
  const review = defaults.reviewId;
  const standardBoard = defaults.boardId;
  const columnName = new Map([[review, defaults.reviewName]]);
  const versionLabel = new Map<string, string>();
  if (inputs.some((input) => input.columnId !== undefined && input.columnId !== review)) {
    for (const c of await trx.selectFrom("boardColumns").select(["id", "name"]).where("appId", "=", appId).execute()) columnName.set(c.id, c.name);
  }
  if (inputs.some((input) => input.versionId !== undefined && input.versionId !== null)) {
    for (const v of await trx.selectFrom("appVersions").select(["id", "label"]).where("appId", "=", appId).execute()) versionLabel.set(v.id, v.label);
  }
  const rows = inputs.map((input) => newRequestRow(clock, appId, input, { now, review, standardBoard, columnName, versionLabel }));
  let webhooks = true;
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH);
    const events = chunk.map((r, j) => ({
      id: newId("evt", clock.now()),
      featureRequestId: r.id,
      appId,
      type: "created",
      data: JSON.stringify({ approved: r.moderation === "approved", ...inputs[i + j]!.eventData }),
      actor: inputs[i + j]!.actor,
      createdAt: r.createdAt,
    }));
    if (chunk.length > 1) {
      await trx.insertInto("featureRequests").values(chunk).execute();
      if (dialect === "sqlite") await trx.insertInto("featureRequestsFts").values(chunk.map((r) => ftsRow(r.id, r, indexPrefix(r)))).execute();
      await trx.insertInto("featureRequestEvents").values(events).execute();
      continue;
    }
    // One request (a proposal): named statements on PostgreSQL (their SQL is the same every
    // time), the insert of its event answering whether the app has an enabled webhook endpoint
    // (PostgreSQL a boolean, SQLite 0 or 1). PostgreSQL inserts the request in the same statement
    // (an INSERT in a WITH; the event's foreign key is checked at the statement's end); SQLite,
    // which has no INSERT in a WITH, takes a statement each, with the search index's row.
    let answer: { webhooks: unknown } | undefined;
    if (dialect === "postgres") {
      [answer] = await executeNamed(
        trx,
        trx
          .with("fr", (db) => db.insertInto("featureRequests").values(chunk))
          .insertInto("featureRequestEvents")
          .values(events)
          .returning((eb) => eb.exists(enabledEndpoints(trx, appId)).as("webhooks")),
      );
    } else {
      await executeNamed(trx, trx.insertInto("featureRequests").values(chunk));
      await trx.insertInto("featureRequestsFts").values(chunk.map((r) => ftsRow(r.id, r, indexPrefix(r)))).execute();
      [answer] = await executeNamed(trx, trx.insertInto("featureRequestEvents").values(events).returning((eb) => eb.exists(enabledEndpoints(trx, appId)).as("webhooks")));
    }
    webhooks = answer?.webhooks === true || answer?.webhooks === 1;
  }
  return { rows, webhooks };
}
