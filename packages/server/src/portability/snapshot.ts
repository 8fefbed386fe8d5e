import SQLite from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import type { Db } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { sqliteKysely } from "../db/sqlite-connection.js";

/** The file of the SQLite database behind `db`, or undefined for an in-memory one. */
async function sqliteFileOf(db: Db): Promise<string | undefined> {
  const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db.kysely);
  const file = rows[0]?.file;
  return file === undefined || file === "" ? undefined : file;
}

/**
 * Runs `read` on one snapshot of the database, so that everything it reads is as of one moment
 * while the server keeps writing: on PostgreSQL a read-only repeatable-read transaction, on
 * SQLite a read transaction on a connection of its own (in WAL mode readers hold no writer up,
 * and the server's own connection stays free). An in-memory SQLite database is read as it is.
 *
 * @example
 * ```ts
 * for await (const line of withSnapshot(db, (k) => exportArchive(k, storage, { scope }))) out.write(line);
 * ```
 */
export async function* withSnapshot<T>(db: Db, read: (kysely: Kysely<Database>) => AsyncGenerator<T>): AsyncGenerator<T> {
  if (db.dialect === "postgres") {
    const trx = await db.kysely.startTransaction().setIsolationLevel("repeatable read").setAccessMode("read only").execute();
    try {
      yield* read(trx);
    } finally {
      await trx.rollback().execute();
    }
    return;
  }
  const file = await sqliteFileOf(db);
  if (file === undefined) {
    yield* read(db.kysely);
    return;
  }
  const connection = new SQLite(file, { fileMustExist: true });
  connection.pragma("busy_timeout = 5000");
  const { kysely } = sqliteKysely(connection);
  try {
    await sql`begin`.execute(kysely);
    yield* read(kysely);
  } finally {
    // Closing the connection ends its read transaction.
    await kysely.destroy();
  }
}
