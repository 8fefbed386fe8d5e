import type { Kysely } from "kysely";
import type { DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { indexPrefix, prefixWords, searchText } from "./search-text.js";

/**
 * Refreshes a request's search columns (title, description, and its column's and version's
 * names) and, on SQLite, its FTS5 row with prefixed words. Runs in the caller's transaction
 * after every change of text, column, version or moderation.
 */
export async function reindex(trx: Kysely<Database>, dialect: DialectName, featureRequestId: string): Promise<void> {
  const row = await trx
    .selectFrom("featureRequests as fr")
    .leftJoin("boardColumns as c", "c.id", "fr.columnId")
    .leftJoin("appVersions as v", "v.id", "fr.versionId")
    .select(["fr.title", "fr.description", "fr.appId", "fr.versionId", "fr.moderation", "fr.mergedIntoId", "c.name as columnName", "v.label as versionLabel"])
    .where("fr.id", "=", featureRequestId)
    .executeTakeFirst();
  if (row === undefined) return;
  const fields = {
    searchTitle: searchText(row.title),
    searchBody: searchText(row.description),
    searchExtra: searchText(`${row.columnName ?? ""} ${row.versionLabel ?? ""}`),
  };
  await trx.updateTable("featureRequests").set(fields).where("id", "=", featureRequestId).execute();
  if (dialect === "sqlite") {
    await trx.deleteFrom("featureRequestsFts").where("featureRequestId", "=", featureRequestId).execute();
    await trx
      .insertInto("featureRequestsFts")
      .values(ftsRow(featureRequestId, fields, indexPrefix(row)))
      .execute();
  }
}

/** A request's SQLite index entry. */
export function ftsRow(featureRequestId: string, text: { searchTitle: string; searchBody: string; searchExtra: string }, prefix: string) {
  return {
    featureRequestId,
    title: prefixWords(text.searchTitle, prefix),
    body: prefixWords(text.searchBody, prefix),
    extra: prefixWords(text.searchExtra, prefix),
  };
}

/** Reindexes the requests of a column or a version (after it is renamed or deleted). */
export async function reindexWhere(
  trx: Kysely<Database>,
  dialect: DialectName,
  filter: { columnId: string } | { versionId: string },
): Promise<void> {
  const [key, value] = "columnId" in filter ? (["columnId", filter.columnId] as const) : (["versionId", filter.versionId] as const);
  const ids = await trx.selectFrom("featureRequests").select("id").where(key, "=", value).execute();
  for (const { id } of ids) await reindex(trx, dialect, id);
}

/** Drops a request's FTS5 row (SQLite keeps it in a separate table). */
export async function unindex(trx: Kysely<Database>, dialect: DialectName, featureRequestId: string): Promise<void> {
  if (dialect === "sqlite") await trx.deleteFrom("featureRequestsFts").where("featureRequestId", "=", featureRequestId).execute();
}
