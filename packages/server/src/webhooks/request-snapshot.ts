import type { RecordField } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { recordFieldsOf } from "../custom-fields/record-fields.js";

/** A request as payloads carry it. */
export interface RequestSnapshot {
  id: string;
  title: string;
  description: string;
  status: { id: string; name: string; kind: string } | null;
  voteCount: number;
  commentCount: number;
  mergedIntoId: string | null;
  createdAt: string;
  /** The board it is on; a private board's requests are sent to `standard` endpoints only. */
  board: { id: string; slug: string; name: string; visibility: "public" | "private" };
}

/**
 * A request as it stands in the transaction, or undefined when the public cannot see it (pending
 * or declined): receivers only hear about approved requests.
 */
export async function requestSnapshot(trx: Kysely<Database>, id: string): Promise<RequestSnapshot | undefined> {
  const row = await trx
    .selectFrom("featureRequests as fr")
    .leftJoin("boardColumns as c", "c.id", "fr.columnId")
    .innerJoin("boards as b", "b.id", "fr.boardId")
    .select([
      "fr.id",
      "fr.title",
      "fr.description",
      "fr.moderation",
      "fr.voteCount",
      "fr.commentCount",
      "fr.mergedIntoId",
      "fr.createdAt",
      "fr.boardId",
      "c.id as columnId",
      "c.name as columnName",
      "c.kind as columnKind",
      "b.slug as boardSlug",
      "b.name as boardName",
      "b.visibility as boardVisibility",
    ])
    .where("fr.id", "=", id)
    .executeTakeFirst();
  if (row === undefined || row.moderation !== "approved") return undefined;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.columnId === null ? null : { id: row.columnId, name: row.columnName ?? "", kind: row.columnKind ?? "" },
    voteCount: Number(row.voteCount),
    commentCount: Number(row.commentCount),
    mergedIntoId: row.mergedIntoId,
    createdAt: row.createdAt,
    board: { id: row.boardId, slug: row.boardSlug, name: row.boardName, visibility: row.boardVisibility },
  };
}

/** A request's custom field values as payloads carry them (the console record's `fields`). */
export async function requestFields(trx: Kysely<Database>, appId: string, featureRequestId: string): Promise<RecordField[]> {
  const row = await trx.selectFrom("featureRequests").select(["appId", "customFields"]).where("id", "=", featureRequestId).executeTakeFirst();
  return row === undefined ? [] : (await recordFieldsOf(trx, [appId]))(row);
}
