import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import { executeNamed } from "../db/named-statements.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database, FeatureRequestsTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { enabledEndpoints, queueRequestWebhook } from "../webhooks/events.js";
import type { StoredFieldValues } from "../custom-fields/values.js";
import { ftsRow } from "../search/search-index.js";
import { indexPrefix, searchText } from "../search/search-text.js";

export type FeatureRequestRow = Selectable<FeatureRequestsTable>;

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
): Promise<FeatureRequestRow> {
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
): Promise<FeatureRequestRow[]> {
  return (await insertRequests(trx, clock, dialect, appId, inputs)).rows;
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
): Promise<{ rows: FeatureRequestRow[]; webhooks: boolean }> {
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
  const rows = inputs.map((input): FeatureRequestRow => {
    const columnId = input.columnId ?? review;
    const versionId = input.versionId ?? null;
    const createdAt = input.createdAt ?? now;
    const importedVotes = input.importedVotes ?? 0;
    return {
      id: newId("fr", clock.now()),
      appId,
      boardId: input.boardId ?? standardBoard,
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
      searchExtra: searchText(`${columnName.get(columnId) ?? ""} ${versionId === null ? "" : (versionLabel.get(versionId) ?? "")}`),
      customFields: JSON.stringify(input.customFields ?? {}),
      createdAt,
      updatedAt: createdAt,
    };
  });
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

/** An app's review column (with its name, for the search text) and its default board. */
export interface AppDefaults {
  reviewId: string;
  reviewName: string;
  boardId: string;
}

function defaultsQuery(db: Kysely<Database>, appId: string) {
  return db
    .selectFrom("boardColumns as c")
    .innerJoin("boards as b", (join) => join.on("b.appId", "=", appId).on("b.isDefault", "=", 1))
    .select(["c.id as reviewId", "c.name as reviewName", "b.id as boardId"])
    .where("c.appId", "=", appId)
    .where("c.kind", "=", "pending_review")
    .orderBy("c.position")
    .limit(1);
}

const appDefaults = preparedQuery<{ appId: string }, AppDefaults>((db, p) => defaultsQuery(db, p.appId));

/**
 * What a proposal reads before it writes, in one statement: the app's defaults and, for a caller
 * with a token (by its hash, see `tokenHash`), their end user if they have one yet (null if not),
 * to hand to `ensureEndUser` and {@link createFeatureRequest}.
 */
export async function proposalStart(trx: Kysely<Database>, appId: string, hash: string): Promise<{ defaults: AppDefaults; endUser: { id: string; publicId: string } | null }> {
  const row = await defaultsAndUser.first(trx, { appId, hash });
  if (row === undefined) throw new Error(`proposal: app ${appId} has no review column or no default board`);
  const { endUserId, publicId, ...defaults } = row;
  return { defaults, endUser: endUserId === null || publicId === null ? null : { id: endUserId, publicId } };
}

const defaultsAndUser = preparedQuery<{ appId: string; hash: string }, AppDefaults & { endUserId: string | null; publicId: string | null }>((db, p) =>
  defaultsQuery(db, p.appId)
    .leftJoin("endUsers as eu", (join) => join.on("eu.appId", "=", p.appId).on("eu.tokenHash", "=", p.hash))
    .select(["eu.id as endUserId", "eu.publicId"]),
);

/**
 * The id and app of a request the public may see: approved and not merged. Anything else is 404
 * `feature_request_not_found`, so the answer never reveals that an unapproved request exists.
 */
export async function findPublicRequest(db: Kysely<Database>, id: string): Promise<{ id: string; appId: string; boardId: string }> {
  const row = await publicRequest.first(db, { id });
  if (row === undefined) throw new ApiError("feature_request_not_found");
  return row;
}

const publicRequest = preparedQuery<{ id: string }, { id: string; appId: string; boardId: string }>((db, p) =>
  db.selectFrom("featureRequests").select(["id", "appId", "boardId"]).where("id", "=", p.id).where("moderation", "=", "approved").where("mergedIntoId", "is", null),
);

/**
 * Locks request rows until the transaction ends (PostgreSQL; on SQLite a write transaction has
 * the database to itself already), in id order so two lockers cannot deadlock.
 *
 * The cached counts (`vote_count`, `comment_count`) stay exact because every write that adds,
 * removes, hides, shows or moves a request's votes or comments holds that request's row lock
 * from before it reads them until it commits: by this call or by its first statement being the
 * count's own update. Under READ COMMITTED a statement run after the lock sees every write that
 * held it before, so a count moved by ±1, or recounted, after the lock is never stale.
 *
 * @example
 * ```ts
 * await lockRequests(trx, dialect, [duplicate.id, target.id]);
 * ```
 */
export async function lockRequests(trx: Kysely<Database>, dialect: DialectName, ids: readonly string[]): Promise<void> {
  if (dialect !== "postgres" || ids.length === 0) return;
  await trx.selectFrom("featureRequests").select("id").where("id", "in", [...new Set(ids)]).orderBy("id").forUpdate().execute();
}

/**
 * PostgreSQL: locks one request as {@link lockRequests} does (so concurrent votes and comments on
 * it are applied one after another, and before the end user is minted: see `ensureEndUser`) and
 * finds the caller's end user by token hash in the same round trip. No row when the request does
 * not exist (404 `feature_request_not_found`); null when the token has no end user yet.
 */
export async function lockRequestFindUser(trx: Kysely<Database>, input: { id: string; appId: string; hash: string }): Promise<{ id: string; publicId: string } | null> {
  const row = await lockedRequestAndUser.first(trx, input);
  if (row === undefined) throw new ApiError("feature_request_not_found");
  return row.endUserId === null || row.publicId === null ? null : { id: row.endUserId, publicId: row.publicId };
}

const lockedRequestAndUser = preparedQuery<
  { id: string; appId: string; hash: string },
  { id: string; endUserId: string | null; publicId: string | null }
>((db, p) =>
  db
    .selectFrom((eb) => eb.selectFrom("featureRequests").select("id").where("id", "=", p.id).forUpdate().as("fr"))
    .leftJoin("endUsers as eu", (join) => join.on("eu.appId", "=", p.appId).on("eu.tokenHash", "=", p.hash))
    .select(["fr.id", "eu.id as endUserId", "eu.publicId"]),
);

/** Sets `vote_count` to the stored votes plus imported ones; hold the request's lock ({@link lockRequests}). */
export async function recountVotes(trx: Kysely<Database>, featureRequestId: string): Promise<number> {
  const { count } = await trx
    .selectFrom("featureRequestVotes")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("featureRequestId", "=", featureRequestId)
    .executeTakeFirstOrThrow();
  const row = await trx.selectFrom("featureRequests").select("importedVotes").where("id", "=", featureRequestId).executeTakeFirstOrThrow();
  const voteCount = Number(count) + row.importedVotes;
  await trx.updateTable("featureRequests").set({ voteCount }).where("id", "=", featureRequestId).execute();
  return voteCount;
}

/** Sets `comment_count` to the visible comments; hold the request's lock ({@link lockRequests}). */
export async function recountComments(trx: Kysely<Database>, featureRequestId: string): Promise<number> {
  const { count } = await trx
    .selectFrom("featureRequestComments")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("featureRequestId", "=", featureRequestId)
    .where("isHidden", "=", 0)
    .executeTakeFirstOrThrow();
  await trx.updateTable("featureRequests").set({ commentCount: Number(count) }).where("id", "=", featureRequestId).execute();
  return Number(count);
}
