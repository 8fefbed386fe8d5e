import type { AppVersion } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { AppVersionsTable, Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";

export type VersionRow = Selectable<AppVersionsTable>;

export function toVersion(row: VersionRow): AppVersion {
  return {
    id: row.id,
    appId: row.appId,
    label: row.label,
    position: row.position,
    released: row.released === 1,
    releasedAt: row.releasedAt,
    description: row.description,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Any RFC 3339 spelling (offset, lower case, space) as the UTC ISO string every other timestamp uses. */
function utcIso(value: string): string {
  return new Date(value).toISOString();
}

/** Versions of an app by position; `releasedOnly` for the public list. */
export function listVersions(db: Kysely<Database>, appId: string, releasedOnly = false): Promise<VersionRow[]> {
  let query = db.selectFrom("appVersions").selectAll().where("appId", "=", appId);
  if (releasedOnly) query = query.where("released", "=", 1);
  return query.orderBy("position").orderBy("id").execute();
}

export async function findVersionInWorkspace(db: Kysely<Database>, workspaceId: string, versionId: string): Promise<VersionRow> {
  const row = await db
    .selectFrom("appVersions")
    .innerJoin("apps", "apps.id", "appVersions.appId")
    .selectAll("appVersions")
    .where("appVersions.id", "=", versionId)
    .where("apps.workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("version_not_found");
  return row;
}

/**
 * A version of `appId`, or 404 `version_not_found`: unknown, empty, another app's or another
 * workspace's id all answer the same, so a write never reaches the foreign key with it.
 *
 * @example
 * ```ts
 * const { label } = await findVersionOfApp(trx, appId, body.versionId);
 * ```
 */
export async function findVersionOfApp(db: Kysely<Database>, appId: string, versionId: string, message = "Version not found in this app"): Promise<VersionRow> {
  const row = await db.selectFrom("appVersions").selectAll().where("id", "=", versionId).where("appId", "=", appId).executeTakeFirst();
  if (row === undefined) throw new ApiError("version_not_found", { message });
  return row;
}

export async function createVersion(
  trx: Kysely<Database>,
  clock: Clock,
  appId: string,
  input: { label: string; released?: boolean; releasedAt?: string | null; description?: string | null },
): Promise<VersionRow> {
  const now = isoNow(clock);
  const last = await trx
    .selectFrom("appVersions")
    .select((eb) => eb.fn.max("position").as("max"))
    .where("appId", "=", appId)
    .executeTakeFirst();
  const released = input.released === true;
  const row: VersionRow = {
    id: newId("ver", clock.now()),
    appId,
    label: input.label,
    position: last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1,
    released: released ? 1 : 0,
    releasedAt: input.releasedAt === undefined || input.releasedAt === null ? (released ? now : null) : utcIso(input.releasedAt),
    description: input.description ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("appVersions").values(row).execute();
  return row;
}

export async function updateVersion(
  trx: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  versionId: string,
  patch: { label?: string; released?: boolean; releasedAt?: string | null; description?: string | null; position?: number },
): Promise<VersionRow> {
  const current = await findVersionInWorkspace(trx, workspaceId, versionId);
  const now = isoNow(clock);
  const changes: Partial<VersionRow> = { updatedAt: now };
  if (patch.label !== undefined) changes.label = patch.label;
  if (patch.description !== undefined) changes.description = patch.description;
  if (patch.position !== undefined) changes.position = patch.position;
  if (patch.released !== undefined) {
    changes.released = patch.released ? 1 : 0;
    if (patch.released && current.releasedAt === null && patch.releasedAt === undefined) changes.releasedAt = now;
  }
  if (patch.releasedAt !== undefined) changes.releasedAt = patch.releasedAt === null ? null : utcIso(patch.releasedAt);
  await trx.updateTable("appVersions").set(changes).where("id", "=", versionId).execute();
  return { ...current, ...changes };
}

export async function deleteVersion(trx: Kysely<Database>, workspaceId: string, versionId: string): Promise<VersionRow> {
  const row = await findVersionInWorkspace(trx, workspaceId, versionId);
  await trx.deleteFrom("appVersions").where("id", "=", versionId).execute();
  return row;
}
