import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";

/** A spent verification token as stored: its SHA-256 (never the token) and when it stops mattering. */
export interface UsedToken {
  digest: string;
  appId: string;
  /** ISO time after which the token is refused anyway (expired challenge or vendor token). */
  expiresAt: string;
}

/** Pruning runs at most this often per database: it is housekeeping, not correctness. */
const PRUNE_INTERVAL_MS = 60_000;
const lastPruned = new WeakMap<Kysely<Database>, number>();

/**
 * The stored form of a verification token.
 *
 * @example
 * ```ts
 * tokenDigest("0.abc…"); // 64 hex characters
 * ```
 */
export function tokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** True when the token was already spent (an early, non-binding check; `markTokenUsed` decides). */
export async function isTokenUsed(db: Kysely<Database>, digest: string): Promise<boolean> {
  const row = await db.selectFrom("verificationTokensUsed").select("tokenHash").where("tokenHash", "=", digest).executeTakeFirst();
  return row !== undefined;
}

/**
 * Records the token as spent inside the caller's transaction. False when another submission
 * recorded it first: the primary key makes this the one atomic single-use check on both engines.
 */
export async function markTokenUsed(trx: Kysely<Database>, token: UsedToken): Promise<boolean> {
  const inserted = await trx
    .insertInto("verificationTokensUsed")
    .values({ tokenHash: token.digest, appId: token.appId, expiresAt: token.expiresAt })
    .onConflict((oc) => oc.column("tokenHash").doNothing())
    .returning("tokenHash")
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Deletes records whose tokens have expired (they would be refused anyway), at most once a
 * minute per database. Runs outside any write transaction so concurrent submissions never
 * contend for the same stale rows.
 */
export async function pruneUsedTokens(db: Kysely<Database>, clock: Clock): Promise<void> {
  const now = clock.now().getTime();
  const last = lastPruned.get(db);
  if (last !== undefined && now - last < PRUNE_INTERVAL_MS && now >= last) return;
  lastPruned.set(db, now);
  await db.deleteFrom("verificationTokensUsed").where("expiresAt", "<=", isoNow(clock)).execute();
}
