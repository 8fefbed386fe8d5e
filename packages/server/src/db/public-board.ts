import { sql, type SqlBool } from "kysely";

/**
 * SQL: the request aliased `fr` (or the table named) is on a public board. For surfaces every
 * visitor shares (portal pages, feeds, sitemaps, public profiles, changelog links), which never
 * show a private board's requests, whoever asks.
 */
export function onPublicBoard(boardIdColumn = "fr.board_id") {
  return sql<SqlBool>`not exists (select 1 from boards pb where pb.id = ${sql.ref(boardIdColumn)} and pb.visibility = 'private')`;
}
