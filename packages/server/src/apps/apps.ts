import type { AppPatch } from "@tidings/protocol";
import type { Insertable, Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { AppsTable, Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { isUniqueViolation } from "../db/constraint-violations.js";
import { insertWithSlug, slugify } from "../slug.js";
import { createDefaultColumns } from "./starting-columns.js";
import { createDefaultBoard } from "./starting-board.js";
import { DEFAULT_MAX_ATTACHMENT_BYTES, DEFAULT_SDK, type AppRow } from "./app-row.js";
import { patchColumns } from "./app-patch.js";
import { newAppKey, newSigningSecret } from "./app-keys.js";


/**
 * Creates an app with default settings and the default roadmap columns. Runs inside the
 * caller's transaction.
 */
export async function createApp(
  trx: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  input: AppPatch & { name: string },
  fixed: { appKey?: string } = {},
): Promise<{ row: AppRow; signingSecret: string }> {
  const now = isoNow(clock);
  const signingSecret = newSigningSecret();
  const id = newId("app", clock.now());
  const appKey = fixed.appKey ?? newAppKey();
  const rowWith = (slug: string): AppRow => ({
    id,
    workspaceId,
    appKey,
    name: input.name,
    slug,
    signingSecret,
    storeUrl: null,
    storeKind: null,
    appStoreUrl: null,
    googlePlayUrl: null,
    websiteUrl: null,
    iconUrl: null,
    hideSiteBranding: 0,
    allowedEmbedOrigins: "[]",
    allowPublic: 1,
    allowAnonymousRoadmap: 1,
    allowAnonymousVote: 1,
    allowAnonymousFeedback: 1,
    allowAnonymousChangelog: 1,
    portalIndexable: 0,
    allowedPlatforms: "[]",
    maxAttachmentBytes: DEFAULT_MAX_ATTACHMENT_BYTES,
    moderationPolicy: "anonymous",
    sdk: JSON.stringify(DEFAULT_SDK),
    verificationProvider: "none",
    verificationSiteKey: null,
    verificationSecret: null,
    verificationExempt: 0,
    verificationTrustIdentified: 1,
    requireIdentifiedUsers: 0,
    createdAt: now,
    updatedAt: now,
    ...patchColumns({ ...input, slug }, null),
  });
  // A client's slug that another request took meanwhile is 409 slug_taken; a derived one is derived again.
  const slug = await insertWithSlug(
    input.slug,
    slugify(input.name, "app"),
    async () => new Set((await trx.selectFrom("apps").select("slug").where("workspaceId", "=", workspaceId).execute()).map((r) => r.slug)),
    async (candidate) =>
      (await trx
        .insertInto("apps")
        .values(insertedColumns(rowWith(candidate)))
        .onConflict((oc) => oc.columns(["workspaceId", "slug"]).doNothing())
        .returning("id")
        .executeTakeFirst()) !== undefined,
  );
  const row = rowWith(slug);
  await createDefaultColumns(trx, clock, row.id);
  await createDefaultBoard(trx, clock, row.id);
  return { row, signingSecret };
}

/**
 * The columns an insert names: settings added by later migrations are left to their column
 * default when they hold it, so creating an app also works on a database that an upgrade has not
 * reached yet (the migration tests create apps on old schemas).
 */
function insertedColumns(row: AppRow): Insertable<AppsTable> {
  const { portalIndexable, requireIdentifiedUsers, verificationTrustIdentified, ...rest } = row;
  return {
    ...rest,
    ...(portalIndexable === 0 ? {} : { portalIndexable }),
    ...(requireIdentifiedUsers === 0 ? {} : { requireIdentifiedUsers }),
    ...(verificationTrustIdentified === 1 ? {} : { verificationTrustIdentified }),
  };
}

/** Applies a patch to an app in `workspaceId`; 404 when it is not there, 409 on a taken slug. */
export async function updateApp(
  trx: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  appId: string,
  patch: AppPatch,
): Promise<AppRow> {
  const current = await findAppInWorkspace(trx, workspaceId, appId);
  if (patch.slug !== undefined && patch.slug !== current.slug) {
    const clash = await trx
      .selectFrom("apps")
      .select("id")
      .where("workspaceId", "=", workspaceId)
      .where("slug", "=", patch.slug)
      .executeTakeFirst();
    if (clash !== undefined) throw new ApiError("slug_taken");
  }
  const changes = { ...patchColumns(patch, current), updatedAt: isoNow(clock) };
  // A concurrent rename may take the slug after the check: the unique index decides.
  await trx
    .updateTable("apps")
    .set(changes)
    .where("id", "=", appId)
    .execute()
    .catch((error: unknown) => {
      throw isUniqueViolation(error, "slug") ? new ApiError("slug_taken") : error;
    });
  return { ...current, ...changes };
}

/** Replaces the signing secret; the old one stops working at once. */
export async function rotateSigningSecret(
  trx: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  appId: string,
): Promise<string> {
  await findAppInWorkspace(trx, workspaceId, appId);
  const signingSecret = newSigningSecret();
  await trx.updateTable("apps").set({ signingSecret, updatedAt: isoNow(clock) }).where("id", "=", appId).execute();
  return signingSecret;
}

/** The app `appId` of `workspaceId`, or 404 `app_not_found`. */
export async function findAppInWorkspace(db: Kysely<Database>, workspaceId: string, appId: string): Promise<AppRow> {
  const row = await db
    .selectFrom("apps")
    .selectAll()
    .where("id", "=", appId)
    .where("workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("app_not_found");
  return row;
}

/** An app by id with its workspace's slug, or undefined. */
export async function findAppById(db: Kysely<Database>, appId: string): Promise<AppRow | undefined> {
  return db.selectFrom("apps").selectAll().where("id", "=", appId).executeTakeFirst();
}
