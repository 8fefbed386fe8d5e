import { sql } from "kysely";
import type { Db } from "./database.js";

/**
 * After a bulk write (an import), refreshes PostgreSQL's statistics of every table of the schema,
 * as autovacuum would within a minute or so, and never with autovacuum off. Until then the
 * planner takes each new table for empty: counting a tag's requests on one board walked the
 * board's index once per tagged request, 303 ms on 3,000 requests against 0.9 ms (see
 * docs/postgresql.md). Only the schema's tables: a bare `ANALYZE` would take every schema of the
 * database. Nothing on SQLite, whose plans here go by each statement's shape: statistics
 * (`sqlite_stat1`) would change them.
 *
 * @example
 * ```ts
 * await importArchive(db, storage, input);
 * await refreshPlannerStatistics(db);
 * ```
 */
export async function refreshPlannerStatistics(db: Db): Promise<void> {
  if (db.dialect !== "postgres") return;
  const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema() order by tablename`.execute(db.kysely);
  if (tables.rows.length === 0) return;
  await sql`analyze ${sql.join(tables.rows.map((t) => sql.id(t.name)))}`.execute(db.kysely);
}
