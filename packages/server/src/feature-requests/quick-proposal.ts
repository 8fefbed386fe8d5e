import { sql, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { readThrough, type SharedCache } from "../cache/shared-cache.js";
import { appTag } from "../context.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";
import { slotUpsert, spreadSlot } from "../intake/quota.js";
import { newPublicUserId } from "../users/identity.js";
import { enabledEndpoints } from "../webhooks/events.js";
import { appDefaults, defaultsStill } from "./app-defaults.js";
import { newRequestRow, type NewFeatureRequest } from "./feature-requests.js";

/** The spread rows a workspace without a quota counts its proposals in (see `spreadSlot`). */
const SPREAD_SHARDS = 16;

/** How long an app's defaults are reused; the statement checks them, so a stale copy costs a fallback, never a wrong row. */
const DEFAULTS_CACHE_MS = 60_000;

/** A proposal that {@link quickProposal} may store: a caller with a token and no SSO profile, no idempotency key, no verification token. */
export type QuickProposal = Pick<NewFeatureRequest, "title" | "description" | "approved" | "requesterName" | "requesterEmail" | "boardId" | "customFields"> & {
  appId: string;
  /** The caller's token hash (`tokenHash`). */
  hash: string;
  /** The workspace's quota slot this month, and whether it had no quota (`IntakePass.slot`). */
  slot: { workspaceId: string; month: string; unlimited?: boolean };
};

/**
 * PostgreSQL, the common proposal as one statement, which is its own transaction: the caller
 * already has an end user, or is new and the workspace has no monthly quota (then the statement
 * mints the end user too: with a quota, the slot could be refused after the end user was
 * written), the app has no enabled webhook endpoint, and its review column and default board are
 * still the ones read (from the shared cache). The statement takes the workspace's quota slot and
 * stores the request and its `created` event, the same rows as `ensureEndUser`,
 * `createFeatureRequest` and `IntakePass.commit`. When any condition fails, or the quota is used
 * up, it writes nothing and answers undefined: the caller then takes the transaction, which tells
 * the cases apart (402, a new end user, the webhook).
 *
 * @example
 * ```ts
 * const id = await quickProposal(db, ctx.cache, clock, { appId, hash: tokenHash(token), slot, title, description, approved: true, requesterName: null, requesterEmail: null });
 * ```
 */
export async function quickProposal(db: Kysely<Database>, cache: SharedCache, clock: Clock, input: QuickProposal): Promise<string | undefined> {
  const defaults = await readThrough(cache, `defaults:${input.appId}`, { ttlMs: DEFAULTS_CACHE_MS, tags: [appTag(input.appId)] }, () => appDefaults.first(db, { appId: input.appId }));
  if (defaults === undefined) return undefined;
  const now = isoNow(clock);
  const row = newRequestRow(clock, input.appId, { ...input, requesterEndUserId: null, createdByAdmin: false, actor: null }, {
    now,
    review: defaults.reviewId,
    standardBoard: defaults.boardId,
    columnName: new Map([[defaults.reviewId, defaults.reviewName]]),
    versionLabel: new Map(),
  });
  const stored = await (input.slot.unlimited === true ? storedSlotLast : storedQuickly).first(db, {
    ...row,
    hash: input.hash,
    mintId: newId("eu", clock.now()),
    mintPublicId: newPublicUserId(),
    shard: Math.floor(Math.random() * SPREAD_SHARDS),
    workspaceId: input.slot.workspaceId,
    month: input.slot.month,
    reviewId: defaults.reviewId,
    reviewName: defaults.reviewName,
    defaultBoardId: defaults.boardId,
    eventId: newId("evt", clock.now()),
    eventData: JSON.stringify({ approved: row.moderation === "approved" }),
  });
  return stored?.id;
}

/** The request's text columns, each one parameter of the statement (its numbers are constants). */
const TEXT_COLUMNS = [
  "id",
  "appId",
  "boardId",
  "title",
  "description",
  "columnId",
  "moderation",
  "approvedAt",
  "requesterName",
  "requesterEmail",
  "searchTitle",
  "searchBody",
  "searchExtra",
  "customFields",
  "createdAt",
  "updatedAt",
] as const;

type Params = { [K in (typeof TEXT_COLUMNS)[number]]: string | null } & {
  hash: string;
  mintId: string;
  mintPublicId: string;
  shard: number;
  workspaceId: string;
  month: string;
  reviewId: string;
  reviewName: string;
  defaultBoardId: string;
  eventId: string;
  eventData: string;
};

/**
 * The proposal's statement. With a quota, the slot on the workspace's usage row comes first, as
 * nothing may be stored without it; that row's lock is then held to the commit, through the
 * request's inserts, and the workspace's proposals go one at a time at that pace. With
 * `slotLast` (a workspace without a quota, checked by the statement) the request is stored first
 * and the slot, which cannot be refused then, is one of the month's spread rows.
 */
function proposalStatement(slotLast: boolean) {
  return preparedQuery<Params, { id: string }>((db, p) => {
    // What every write of the statement waits on, besides the caller's end user.
    const open = () =>
      sql<SqlBool>`not exists (${enabledEndpoints(db, p.appId!)}) and ${defaultsStill(db, p.appId!, { reviewId: p.reviewId, reviewName: p.reviewName, boardId: p.defaultBoardId })}`;
    const noQuota = () => sql<SqlBool>`(select monthly_submission_quota from workspaces where id = ${p.workspaceId}) is null`;
    const withUser = db
      .with("found", (q) => q.selectFrom("endUsers").select(["id", "publicId"]).where("appId", "=", p.appId!).where("tokenHash", "=", p.hash))
      // A new caller's end user, minted only when the quota cannot refuse the slot (the
      // workspace has none), so that nothing is written unless everything is. A caller minted
      // meanwhile by another transaction conflicts: nothing is minted or found, and nothing
      // else is written.
      .with("minted", (q) =>
        q
          .insertInto("endUsers")
          .columns(["id", "appId", "tokenHash", "publicId", "createdAt", "lastSeenAt"])
          .expression(
            db
              .selectNoFrom((eb) => [
                eb.val(p.mintId).as("id"),
                eb.val(p.appId).as("appId"),
                eb.val(p.hash).as("tokenHash"),
                eb.val(p.mintPublicId).as("publicId"),
                eb.val(p.createdAt).as("createdAt"),
                eb.val(p.createdAt).as("lastSeenAt"),
              ])
              .where(sql<SqlBool>`not exists (select from found) and ${noQuota()} and ${open()}`),
          )
          .onConflict((oc) => oc.columns(["appId", "tokenHash"]).doNothing())
          .returning(["id", "publicId"]),
      )
      .with("eu", (q) => q.selectFrom("found").select(["id", "publicId"]).unionAll(q.selectFrom("minted").select(["id", "publicId"])));
    const requestColumns = (eb: ExpressionBuilder<{ eu: { id: string } }, "eu">) => [
      ...TEXT_COLUMNS.map((column) => eb.val(p[column]).as(column)),
      sql<null>`null`.as("versionId"),
      sql<null>`null`.as("mergedIntoId"),
      eb.ref("eu.id").as("requesterEndUserId"),
      sql<number>`0`.as("createdByAdmin"),
      sql<number>`0`.as("voteCount"),
      sql<number>`0`.as("importedVotes"),
      sql<number>`0`.as("commentCount"),
    ];
    const COLUMNS = [...TEXT_COLUMNS, "versionId", "mergedIntoId", "requesterEndUserId", "createdByAdmin", "voteCount", "importedVotes", "commentCount"] as const;
    const requestFirst = withUser.with("fr", (q) =>
      q
        .insertInto("featureRequests")
        .columns(COLUMNS)
        .expression(q.selectFrom("eu").select(requestColumns).where(sql<SqlBool>`${noQuota()} and ${open()}`))
        .returning("id"),
    );
    const slotFirst = withUser
      .with("slot", () => slotUpsert(db, p.workspaceId, p.month, sql<SqlBool>`exists (select from eu) and ${open()}`).returning("submissions"))
      .with("fr", (q) => q.insertInto("featureRequests").columns(COLUMNS).expression(q.selectFrom(["slot", "eu"]).select(requestColumns)).returning("id"));
    // The rest reads the request and the end user only, which both orders give.
    const withRequest = slotLast ? requestFirst : (slotFirst as unknown as typeof requestFirst);
    const withEvent = withRequest.with("ev", (q) =>
      q
        .insertInto("featureRequestEvents")
        .columns(["id", "featureRequestId", "appId", "type", "data", "actor", "createdAt"])
        .expression(
          q
            .selectFrom(["fr", "eu"])
            .select((eb) => [
              eb.val(p.eventId).as("id"),
              "fr.id as featureRequestId",
              eb.val(p.appId).as("appId"),
              sql<string>`'created'`.as("type"),
              eb.val(p.eventData).as("data"),
              sql<string>`'end_user:' || eu.public_id`.as("actor"),
              eb.val(p.createdAt).as("createdAt"),
            ]),
        ),
    );
    // Slot last: no statement reads it, so PostgreSQL runs it after the others. The request was
    // stored only if the workspace has no quota, so the slot is one of the month's spread rows
    // (migration 0043), picked at random: proposals need not wait for each other's lock on one
    // row to the commit.
    const done = slotLast ? withEvent.with("lastSlot", () => spreadSlot(db, p.workspaceId, p.month, p.shard, sql<SqlBool>`exists (select from fr)`)) : withEvent;
    return (done as typeof withEvent).selectFrom("fr").select("fr.id");
  });
}

const storedQuickly = proposalStatement(false);
const storedSlotLast = proposalStatement(true);
