import type { BoardColumn, ColumnKind } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { BoardColumnsTable, Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { insertWithSlug, slugify } from "../slug.js";

export type ColumnRow = Selectable<BoardColumnsTable>;

/** Public/console shape of a column row. */
export function toColumn(row: ColumnRow): BoardColumn {
  return {
    id: row.id,
    appId: row.appId,
    name: row.name,
    slug: row.slug,
    position: row.position,
    isVisible: row.isVisible === 1,
    isSystem: row.isSystem === 1,
    kind: row.kind as ColumnKind,
    color: row.color,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Every column of an app, by position. */
export function listColumns(db: Kysely<Database>, appId: string): Promise<ColumnRow[]> {
  return db.selectFrom("boardColumns").selectAll().where("appId", "=", appId).orderBy("position").orderBy("id").execute();
}

/** A column together with the app it belongs to, scoped to a workspace; 404 otherwise. */
export async function findColumnInWorkspace(db: Kysely<Database>, workspaceId: string, columnId: string): Promise<ColumnRow> {
  const row = await db
    .selectFrom("boardColumns")
    .innerJoin("apps", "apps.id", "boardColumns.appId")
    .selectAll("boardColumns")
    .where("boardColumns.id", "=", columnId)
    .where("apps.workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("column_not_found");
  return row;
}

export async function createColumn(
  trx: Kysely<Database>,
  clock: Clock,
  appId: string,
  input: { name: string; slug?: string; kind?: ColumnKind; color?: string | null; isVisible?: boolean },
): Promise<ColumnRow> {
  const now = isoNow(clock);
  const id = newId("col", clock.now());
  // After the columns read with the taken slugs.
  let position = 0;
  const rowWith = (slug: string): ColumnRow => ({
    id,
    appId,
    name: input.name,
    slug,
    position,
    isVisible: input.isVisible === false ? 0 : 1,
    isSystem: 0,
    kind: input.kind === "pending_review" ? "normal" : (input.kind ?? "normal"),
    color: input.color ?? null,
    createdAt: now,
    updatedAt: now,
  });
  // A client's slug that another request took meanwhile is 409 slug_taken; a derived one is derived again.
  const slug = await insertWithSlug(
    input.slug,
    slugify(input.name, "column"),
    async () => {
      const existing = await listColumns(trx, appId);
      position = existing.reduce((max, c) => Math.max(max, c.position + 1), 0);
      return new Set(existing.map((c) => c.slug));
    },
    async (candidate) =>
      (await trx
        .insertInto("boardColumns")
        .values(rowWith(candidate))
        .onConflict((oc) => oc.columns(["appId", "slug"]).doNothing())
        .returning("id")
        .executeTakeFirst()) !== undefined,
  );
  return rowWith(slug);
}

export async function updateColumn(
  trx: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  columnId: string,
  patch: { name?: string; color?: string | null; isVisible?: boolean; position?: number },
): Promise<ColumnRow> {
  const current = await findColumnInWorkspace(trx, workspaceId, columnId);
  const changes: Partial<ColumnRow> = { updatedAt: isoNow(clock) };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.color !== undefined) changes.color = patch.color;
  if (patch.isVisible !== undefined) changes.isVisible = patch.isVisible ? 1 : 0;
  await trx.updateTable("boardColumns").set(changes).where("id", "=", columnId).execute();
  if (patch.position !== undefined) {
    const ids = (await listColumns(trx, current.appId)).map((c) => c.id).filter((id) => id !== columnId);
    ids.splice(Math.min(patch.position, ids.length), 0, columnId);
    await writeOrder(trx, ids);
  }
  return (await findColumnInWorkspace(trx, workspaceId, columnId));
}

async function writeOrder(trx: Kysely<Database>, ids: readonly string[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await trx.updateTable("boardColumns").set({ position }).where("id", "=", id).execute();
  }
}

/** Sets the order of an app's columns; `columnIds` must list each of them exactly once. */
export async function reorderColumns(trx: Kysely<Database>, clock: Clock, appId: string, columnIds: readonly string[]): Promise<ColumnRow[]> {
  const existing = new Set((await listColumns(trx, appId)).map((c) => c.id));
  const given = new Set(columnIds);
  if (given.size !== columnIds.length || given.size !== existing.size || [...given].some((id) => !existing.has(id))) {
    throw new ApiError("invalid_column_order");
  }
  await writeOrder(trx, columnIds);
  await trx.updateTable("boardColumns").set({ updatedAt: isoNow(clock) }).where("appId", "=", appId).execute();
  return listColumns(trx, appId);
}

/**
 * Deletes a non-system column and closes the gap in the positions; its feature requests go back
 * to the app's review column in the same transaction. (Their search text still names the old
 * column until reindexed: the caller reindexes them.)
 */
export async function deleteColumn(trx: Kysely<Database>, workspaceId: string, columnId: string): Promise<ColumnRow & { movedRequestIds: string[] }> {
  const column = await findColumnInWorkspace(trx, workspaceId, columnId);
  if (column.isSystem === 1) throw new ApiError("system_column");
  const review = await trx
    .selectFrom("boardColumns")
    .select("id")
    .where("appId", "=", column.appId)
    .where("kind", "=", "pending_review")
    .orderBy("position")
    .executeTakeFirstOrThrow();
  const moved = await trx
    .updateTable("featureRequests")
    .set({ columnId: review.id })
    .where("columnId", "=", columnId)
    .returning("id")
    .execute();
  await trx.deleteFrom("boardColumns").where("id", "=", columnId).execute();
  const rest = (await listColumns(trx, column.appId)).map((c) => c.id);
  await writeOrder(trx, rest);
  return { ...column, movedRequestIds: moved.map((m) => m.id) };
}
