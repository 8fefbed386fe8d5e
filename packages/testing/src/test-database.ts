import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrateToLatest } from "../../server/src/db/migrate.js";
import { openDatabase, type Db, type DialectName, type OpenOptions } from "../../server/src/db/database.js";

/**
 * The dialects the data-layer suites run on: SQLite always; PostgreSQL when TEST_DATABASE_URL is
 * set. With CI=true a missing TEST_DATABASE_URL is an error, not a skip.
 */
export function testDialects(env: Record<string, string | undefined> = process.env): DialectName[] {
  if (env.TEST_DATABASE_URL) return ["sqlite", "postgres"];
  if (env.CI === "true") {
    throw new Error("CI=true but TEST_DATABASE_URL is not set: the PostgreSQL suite is required in CI");
  }
  return ["sqlite"];
}

/** A migrated, empty database of one dialect, and how to throw it away. */
export interface TestDatabase {
  db: Db;
  /** The SQLite file's URL, or the PostgreSQL database's (its schema apart: see {@link databaseUrl}). */
  url: string;
  schema: string | undefined;
  cleanup(): Promise<void>;
}

/**
 * The `DATABASE_URL` a command or another process opens `database` with: on PostgreSQL, the
 * database's URL with its schema as the search path.
 */
export function databaseUrl(database: Pick<TestDatabase, "url" | "schema">): string {
  return database.schema === undefined ? database.url : `${database.url}?options=${encodeURIComponent(`-c search_path=${database.schema}`)}`;
}

/**
 * Opens a fresh database: a SQLite file in a temp folder, or a new schema in the PostgreSQL
 * database of TEST_DATABASE_URL (dropped again by `cleanup`). `timeQueries` as {@link OpenOptions}.
 */
export async function openTestDatabase(dialect: DialectName, options: Pick<OpenOptions, "timeQueries"> = {}): Promise<TestDatabase> {
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-test-"));
    const url = `sqlite:${path.join(dir, "tidings.db")}`;
    const db = openDatabase(url, options);
    await migrateToLatest(db);
    return {
      db,
      url,
      schema: undefined,
      cleanup: async () => {
        await db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const db = openDatabase(base, { ...options, schema });
  await migrateToLatest(db, { schema });
  return {
    db,
    url: base,
    schema,
    cleanup: async () => {
      await db.destroy();
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}
