import type { Kysely } from "kysely";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { randomToken } from "../ids.js";
import { APP_COLUMNS, type AppRow } from "./app-row.js";

/** A new app key: `app_` + 28 URL-safe random characters. */
export function newAppKey(): string {
  return `app_${randomToken(28)}`;
}

/** A new signing secret for identity hashes and attribute signatures. */
export function newSigningSecret(): string {
  return `tsk_${randomToken(40)}`;
}

/**
 * The id of the app whose public key is `appKey`, as a scalar subquery (null for an unknown key):
 * for a statement that reads an app's rows by its key, beside the app itself, before its id is
 * known. Uncorrelated, so the database reads the app once, then the rows by its id.
 */
export function appIdOfKey(db: Kysely<Database>, appKey: string) {
  return db.selectFrom("apps").select("apps.id").where("apps.appKey", "=", appKey).$asScalar();
}

/** What any app key looks like (`app_demo`, `app_` + random URL-safe characters). */
const APP_KEY_SHAPE = /^[A-Za-z0-9_-]{4,128}$/;

/** An app by its public key with its workspace's slug, or undefined. */
export async function findAppByKey(
  db: Kysely<Database>,
  appKey: string,
): Promise<{ app: AppRow; workspaceSlug: string } | undefined> {
  if (!APP_KEY_SHAPE.test(appKey)) return undefined;
  const row = await appByKey.first(db, { appKey });
  if (row === undefined) return undefined;
  const { workspaceSlug, ...app } = row;
  return { app, workspaceSlug };
}

/**
 * The first read of every public request of an app not in the cache: built once, and a named
 * statement on PostgreSQL (its columns are listed, see everyColumn). The workspace's slug is a
 * subquery: SQLite took 35 µs for the app joined to its workspace, and 7 µs this way.
 */
const appByKey = preparedQuery<{ appKey: string }, AppRow & { workspaceSlug: string }>((db, p) =>
  db
    .selectFrom("apps")
    .select(APP_COLUMNS.map((column) => `apps.${column}` as const))
    .select((eb) => eb.selectFrom("workspaces").select("workspaces.slug").whereRef("workspaces.id", "=", "apps.workspaceId").$asScalar().$notNull().as("workspaceSlug"))
    .where("apps.appKey", "=", p.appKey),
);
