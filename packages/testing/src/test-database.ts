import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
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
 *
 * Each is a copy of a database this process migrated once (see {@link sqliteTemplate} and
 * {@link postgresTemplate}): migrating every fresh database anew took about 0.2 s on SQLite and
 * 0.66 s on PostgreSQL, for each of the suite's thousands of tests that start from one.
 */
export async function openTestDatabase(dialect: DialectName, options: Pick<OpenOptions, "timeQueries"> = {}): Promise<TestDatabase> {
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-test-"));
    const file = path.join(dir, "tidings.db");
    fs.writeFileSync(file, await sqliteTemplate());
    const url = `sqlite:${file}`;
    const db = openDatabase(url, options);
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
  const script = await postgresTemplate(base);
  // One transaction: the schema exists whole or not at all. The script sets its session's
  // search path, so it runs on a connection of its own.
  await withAdmin(base, (admin) => admin.query(script === undefined ? `create schema ${schema}` : `begin;\n${script.replaceAll(TEMPLATE_SCHEMA, schema)}\ncommit;`));
  const db = openDatabase(base, { ...options, schema });
  // Without a template (no pg_dump here), the migrations build the schema. A copy has them all:
  // asking the migrator would cost 0.17 s (it reads the tables of every schema of the database).
  if (script === undefined) await migrateToLatest(db, { schema });
  return {
    db,
    url: base,
    schema,
    cleanup: async () => {
      await db.destroy();
      await withAdmin(base, (admin) => admin.query(`drop schema ${schema} cascade`));
    },
  };
}

let sqliteFile: Promise<Buffer> | undefined;

/**
 * The bytes of a SQLite file this process migrated (the file itself is gone again): each fresh
 * database is a copy.
 */
function sqliteTemplate(): Promise<Buffer> {
  sqliteFile ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-template-"));
    try {
      const file = path.join(dir, "tidings.db");
      const db = openDatabase(`sqlite:${file}`);
      try {
        await migrateToLatest(db);
      } finally {
        // The last connection to close checkpoints the WAL into the file and deletes it.
        await db.destroy();
      }
      return fs.readFileSync(file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  })();
  return sqliteFile;
}

/** The schema name the template script holds; each copy replaces it with its own. */
const TEMPLATE_SCHEMA = `t_template_${randomBytes(6).toString("hex")}`;
let postgresScript: Promise<string | undefined> | undefined;

/**
 * The SQL that rebuilds a migrated schema, as `pg_dump` writes it (tables, indexes, functions,
 * triggers and the migration table's rows), naming the schema {@link TEMPLATE_SCHEMA}: a schema
 * this process migrated once, dumped, then dropped. Undefined where `pg_dump` is missing or
 * refuses the server (an older major version): the migrations then build each schema.
 */
function postgresTemplate(base: string): Promise<string | undefined> {
  postgresScript ??= withAdmin(base, async (admin) => {
    try {
      await admin.query(`create schema ${TEMPLATE_SCHEMA}`);
      const db = openDatabase(base, { schema: TEMPLATE_SCHEMA });
      try {
        await migrateToLatest(db, { schema: TEMPLATE_SCHEMA });
      } finally {
        await db.destroy();
      }
      const { stdout } = await promisify(execFile)("pg_dump", ["--dbname", base, "--schema", TEMPLATE_SCHEMA, "--no-owner", "--no-privileges", "--inserts"], {
        maxBuffer: 64 * 1024 * 1024,
      });
      // `\restrict` and `\unrestrict` are psql's commands, not SQL.
      return stdout
        .split("\n")
        .filter((line) => !line.startsWith("\\"))
        .join("\n");
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT" || /server version mismatch/.test(String((error as { stderr?: unknown }).stderr ?? ""))) return undefined;
      throw error;
    } finally {
      await admin.query(`drop schema if exists ${TEMPLATE_SCHEMA} cascade`);
    }
  });
  return postgresScript;
}

/** `work` on a connection of its own to the server at `base`, closed afterwards whatever happens. */
async function withAdmin<T>(base: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
