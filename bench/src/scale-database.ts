/**
 * A fresh database for one run of the scale benchmark: a SQLite file in a folder of its own, or
 * a schema of its own in the PostgreSQL database at `url` (dropped afterwards). The bench seeds it
 * in-process, closes it, and hands the server child the environment that opens it.
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateToLatest, openDatabase, type Db } from "@tidings/server";
import { sql } from "kysely";

export type EngineName = "SQLite" | "PostgreSQL";

export interface BenchDatabase {
  engine: EngineName;
  db: Db;
  /** What `tidings serve` needs to open the same database. */
  serverEnv: Record<string, string>;
  /** Vacuums and analyzes, as autovacuum leaves tables some time after a bulk write. */
  settle(): Promise<void>;
  /** Bytes on disk: the SQLite file with its WAL, or every relation of the schema with its indexes. */
  size(): Promise<number>;
  drop(): Promise<void>;
}

/**
 * @example
 * ```ts
 * const database = await openBenchDatabase(process.env.BENCH_DATABASE_URL, "scale");
 * await seedWorkspace(database.db);
 * ```
 */
export async function openBenchDatabase(postgresUrl: string | undefined, label: string): Promise<BenchDatabase> {
  if (postgresUrl === undefined) {
    const dir = await mkdtemp(path.join(tmpdir(), `tidings-bench-${label}-`));
    const db = openDatabase(`sqlite:${path.join(dir, "tidings.db")}`);
    await migrateToLatest(db);
    return {
      engine: "SQLite",
      db,
      serverEnv: { DATA_DIR: dir },
      settle: async () => {
        await sql`pragma wal_checkpoint(truncate)`.execute(db.kysely);
        await sql`analyze`.execute(db.kysely);
      },
      size: async () => {
        const files = (await readdir(dir)).filter((f) => f.startsWith("tidings.db"));
        return (await Promise.all(files.map(async (f) => (await stat(path.join(dir, f))).size))).reduce((a, b) => a + b, 0);
      },
      drop: async () => {
        await db.destroy().catch(() => {});
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `tidings_bench_${label}_${process.pid}`;
  const admin = openDatabase(postgresUrl);
  await admin.kysely.schema.createSchema(schema).execute();
  const db = openDatabase(postgresUrl, { schema });
  await migrateToLatest(db, { schema });
  return {
    engine: "PostgreSQL",
    db,
    serverEnv: { DATABASE_URL: `${postgresUrl}${postgresUrl.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}` },
    settle: async () => {
      // Table by table: a bare VACUUM would walk every schema of a database others use too.
      const tables = await sql<{ tablename: string }>`select tablename from pg_tables where schemaname = ${schema}`.execute(admin.kysely);
      for (const { tablename } of tables.rows) await sql`vacuum analyze ${sql.id(schema, tablename)}`.execute(admin.kysely);
      // The seed and the vacuum leave gigabytes of dirty pages (a vacuum sets hint bits on every
      // page it reads), which PostgreSQL's checkpointer would write out during the first timings
      // after them. Written out now, the timings are of a board at rest. (Needs a superuser or
      // pg_checkpoint; without them the timings start with the writes pending.)
      await sql`checkpoint`.execute(admin.kysely).catch(() => undefined);
    },
    size: async () => {
      const row = await sql<{ bytes: string }>`select coalesce(sum(pg_total_relation_size(format('%I.%I', schemaname, tablename))), 0) as bytes from pg_tables where schemaname = ${schema}`.execute(
        admin.kysely,
      );
      return Number(row.rows[0]?.bytes ?? 0);
    },
    drop: async () => {
      await db.destroy().catch(() => {});
      await admin.kysely.schema.dropSchema(schema).ifExists().cascade().execute();
      await admin.destroy();
    },
  };
}
