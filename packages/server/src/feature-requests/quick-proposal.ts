import { sql, type Kysely, type SqlBool } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { readThrough, type SharedCache } from "../cache/shared-cache.js";
import { appTag } from "../context.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";
import { slotUpsert } from "../intake/quota.js";
import { newPublicUserId } from "../users/identity.js";
import { enabledEndpoints } from "../webhooks/events.js";
import { appDefaults, defaultsStill } from "./app-defaults.js";
import { newRequestRow, type NewFeatureRequest } from "./feature-requests.js";

/** How long an app's defaults are reused; the statement checks them, so a stale copy costs a fallback, never a wrong row. */
const DEFAULTS_CACHE_MS = 60_000;

/** A proposal that {@link quickProposal} may store: a caller with a token and no SSO profile, no idempotency key, no verification token. */
export type QuickProposal = Pick<NewFeatureRequest, "title" | "description" | "approved" | "requesterName" | "requesterEmail" | "boardId" | "customFields"> & {
  appId: string;
  /** The caller's token hash (`tokenHash`). */
  hash: string;
  /** The workspace's quota slot this month (`IntakePass.slot`). */
  slot: { workspaceId: string; month: string };
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
  const stored = await storedQuickly.first(db, {
    ...row,
    hash: input.hash,
    mintId: newId("eu", clock.now()),
    mintPublicId: newPublicUserId(),
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
  workspaceId: string;
  month: string;
  reviewId: string;
  reviewName: string;
  defaultBoardId: string;
  eventId: string;
  eventData: string;
};

const storedQuickly = preparedQuery<Params, { id: string }>((db, p) => {
  // What every write of the statement waits on, besides the caller's end user.
  const open = () =>
    sql<SqlBool>`not exists (${enabledEndpoints(db, p.appId!)}) and ${defaultsStill(db, p.appId!, { reviewId: p.reviewId, reviewName: p.reviewName, boardId: p.defaultBoardId })}`;
  return db
    .with("found", (q) => q.selectFrom("endUsers").select(["id", "publicId"]).where("appId", "=", p.appId!).where("tokenHash", "=", p.hash))
    // A new caller's end user, minted only when the quota cannot refuse the slot (the workspace
    // has none), so that nothing is written unless everything is. A caller minted meanwhile by
    // another transaction conflicts: nothing is minted or found, and nothing else is written.
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
            .where(
              sql<SqlBool>`not exists (select from found) and (select monthly_submission_quota from workspaces where id = ${p.workspaceId}) is null and ${open()}`,
            ),
        )
        .onConflict((oc) => oc.columns(["appId", "tokenHash"]).doNothing())
        .returning(["id", "publicId"]),
    )
    .with("eu", (q) => q.selectFrom("found").select(["id", "publicId"]).unionAll(q.selectFrom("minted").select(["id", "publicId"])))
    .with("slot", () => slotUpsert(db, p.workspaceId, p.month, sql<SqlBool>`exists (select from eu) and ${open()}`).returning("submissions"))
    .with("fr", (q) =>
      q
        .insertInto("featureRequests")
        .columns([...TEXT_COLUMNS, "versionId", "mergedIntoId", "requesterEndUserId", "createdByAdmin", "voteCount", "importedVotes", "commentCount"])
        .expression(
          q
            .selectFrom(["slot", "eu"])
            .select((eb) => [
              ...TEXT_COLUMNS.map((column) => eb.val(p[column]).as(column)),
              sql<null>`null`.as("versionId"),
              sql<null>`null`.as("mergedIntoId"),
              "eu.id as requesterEndUserId",
              sql<number>`0`.as("createdByAdmin"),
              sql<number>`0`.as("voteCount"),
              sql<number>`0`.as("importedVotes"),
              sql<number>`0`.as("commentCount"),
            ]),
        )
        .returning("id"),
    )
    .with("ev", (q) =>
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
    )
    .selectFrom("fr")
    .select("fr.id");
});
