import type { Kysely } from "kysely";
import { appTag, type Context } from "../context.js";
import type { Database } from "../db/schema.js";

/**
 * Runs a console write in one transaction, then drops the cached public answers of the app of the
 * row it answers, so the public API never serves what the write changed.
 */
export async function writeAppRow<T extends { appId: string }>(ctx: Context, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  const result = await ctx.db.kysely.transaction().execute(work);
  await ctx.cache.invalidateTag(appTag(result.appId));
  return result;
}
