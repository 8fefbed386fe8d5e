import { Migrator, type Kysely, type MigrationResultSet } from "kysely";
import type { Db, OpenOptions } from "./database.js";
import { migrations } from "./migrations/index.js";

/**
 * Runs every pending migration. Safe to call on every start.
 *
 * @example
 * ```ts
 * const applied = await migrateToLatest(db); // ["0001-initial"] on a new database
 * ```
 */
export async function migrateToLatest(db: Db, options: OpenOptions = {}): Promise<string[]> {
  return migrate(db, options, (migrator) => migrator.migrateToLatest());
}

/**
 * Migrates up or down to the migration named `target`, with {@link migrateToLatest}'s retries:
 * how a migration's test starts from the version before it. Answers the migrations run.
 *
 * @example
 * ```ts
 * await migrateTo(db, "0027-tags"); // undoes 0028 and later
 * ```
 */
export async function migrateTo(db: Db, target: string, options: OpenOptions = {}): Promise<string[]> {
  return migrate(db, options, (migrator) => migrator.migrateTo(target));
}

async function migrate(db: Db, options: OpenOptions, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely.withoutPlugins() as Kysely<unknown>,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(options.schema === undefined ? {} : { migrationTableSchema: options.schema }),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await run(migrator);
    if (error === undefined) return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
    if (attempt < 10 && (isOtherSchemaDropped(error, options.schema) || isCatalogRace(error, results))) continue;
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Kysely's migrator reads the table list of every schema in the database; a schema that another
 * client drops during that read fails it with `3F000` naming that schema. Each migration runs in its
 * own transaction, so reading again is safe.
 */
function isOtherSchemaDropped(error: unknown, ownSchema: string | undefined): boolean {
  if (typeof error !== "object" || error === null || (error as { code?: unknown }).code !== "3F000") return false;
  const message = error instanceof Error ? error.message : "";
  return ownSchema === undefined ? !message.includes('"public"') : !message.includes(`"${ownSchema}"`);
}

/**
 * The same read races other clients' migrations too: a column or table that another schema's
 * migration drops while the read looks it up by name fails it with `42703` or `42P01`, naming a
 * relation but not its schema. Only a failure before any migration ran (no results) is such a
 * read: a migration of ours that fails is reported, not retried.
 */
function isCatalogRace(error: unknown, results: readonly unknown[] | undefined): boolean {
  if (results !== undefined || typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === "42703" || code === "42P01";
}
