import { randomBytes } from "node:crypto";
import { isoNow } from "./clock.js";
import type { Context } from "./context.js";
import type { Db } from "./db/database.js";

const cache = new WeakMap<Db, Map<string, Promise<string>>>();

/** Every instance secret the server signs with; each is made when the app is built. */
export const INSTANCE_SECRET_KEYS = ["download_link_secret", "mail_link_secret", "console_setup_secret"] as const;

/** The name of one instance secret in `server_settings`. */
export type InstanceSecretKey = (typeof INSTANCE_SECRET_KEYS)[number];

/**
 * A 256-bit secret of this instance, made on first use and kept in `server_settings` under
 * `key`, so what it signs (download links, mail links) survives restarts and every instance on
 * the database signs alike. Read once per database handle.
 *
 * @example
 * ```ts
 * const secret = await instanceSecret(ctx, "download_link_secret");
 * ```
 */
export function instanceSecret(ctx: Pick<Context, "db" | "clock">, key: InstanceSecretKey): Promise<string> {
  let secrets = cache.get(ctx.db);
  if (secrets === undefined) cache.set(ctx.db, (secrets = new Map()));
  let secret = secrets.get(key);
  if (secret === undefined) {
    const db = ctx.db.kysely;
    secret = (async () => {
      await db
        .insertInto("serverSettings")
        .values({ key, value: randomBytes(32).toString("hex"), createdAt: isoNow(ctx.clock) })
        .onConflict((oc) => oc.column("key").doNothing())
        .execute();
      return (await db.selectFrom("serverSettings").select("value").where("key", "=", key).executeTakeFirstOrThrow()).value;
    })();
    const made = secrets;
    secret.catch(() => made.delete(key));
    secrets.set(key, secret);
  }
  return secret;
}

/**
 * Makes (or reads) every instance secret up front, so no request writes one: a request that is
 * refused then leaves the database exactly as it found it.
 *
 * @example
 * ```ts
 * await ensureInstanceSecrets(ctx); // in buildApp, before any route is registered
 * ```
 */
export async function ensureInstanceSecrets(ctx: Pick<Context, "db" | "clock">): Promise<void> {
  await Promise.all(INSTANCE_SECRET_KEYS.map((key) => instanceSecret(ctx, key)));
}
