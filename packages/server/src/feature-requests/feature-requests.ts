import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import { executeNamed } from "../db/named-statements.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database, FeatureRequestsTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { queueRequestWebhook } from "../webhooks/events.js";
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
): Promise<FeatureRequestRow> {
  const [row] = await createFeatureRequests(trx, clock, dialect, input.appId, [input]);
  // One request at a time is a person's (imports go through createFeatureRequests alone and send no webhooks).
  await queueRequestWebhook(trx, clock, { featureRequestId: row!.id, appId: input.appId, type: "created", actor: input.actor, data: {} });
  return row!;
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
  if (inputs.some((input) => input.appId !== appId)) throw new Error("createFeatureRequests: every request must belong to appId");
  const now = isoNow(clock);
  // The review column and the default board in one statement; the names of other columns and of
  // versions only when a request is placed in one (imports): a proposal needs neither.
  const defaults = await appDefaults.first(trx, { appId });
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
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH);
    // One request (a proposal) as a named statement on PostgreSQL: its SQL is the same every time.
    const one = chunk.length === 1;
    const inserted = trx.insertInto("featureRequests").values(chunk);
    await (one ? executeNamed(trx, inserted) : inserted.execute());
    if (dialect === "sqlite") {
      await trx
        .insertInto("featureRequestsFts")
        .values(chunk.map((r) => ftsRow(r.id, r, indexPrefix(r))))
        .execute();
    }
    const events = trx.insertInto("featureRequestEvents").values(
      chunk.map((r, j) => ({
        id: newId("evt", clock.now()),
        featureRequestId: r.id,
        appId,
        type: "created",
        data: JSON.stringify({ approved: r.moderation === "approved", ...inputs[i + j]!.eventData }),
        actor: inputs[i + j]!.actor,
        createdAt: r.createdAt,
      })),
    );
    await (one ? executeNamed(trx, events) : events.execute());
  }
  return rows;
}

/** An app's review column (with its name, for the search text) and its default board. */
const appDefaults = preparedQuery<{ appId: string }, { reviewId: string; reviewName: string; boardId: string }>((db, p) =>
  db
    .selectFrom("boardColumns as c")
    .innerJoin("boards as b", (join) => join.on("b.appId", "=", p.appId).on("b.isDefault", "=", 1))
    .select(["c.id as reviewId", "c.name as reviewName", "b.id as boardId"])
    .where("c.appId", "=", p.appId)
    .where("c.kind", "=", "pending_review")
    .orderBy("c.position")
    .limit(1),
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
