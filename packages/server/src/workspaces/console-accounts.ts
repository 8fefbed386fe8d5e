import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";

/** A console account as {@link ensureConsoleUser} answers it. */
export interface ConsoleAccount {
  id: string;
  displayName: string | null;
  passwordHash: string | null;
  /** True when this call created it (without a password); false when it was there already. */
  created: boolean;
}

/**
 * The console user of `email` (any case), created without a password when there is none. Two
 * requests creating the same email at once both end with the one account, as when sent one
 * after the other: on a clash PostgreSQL waits for the concurrent writer's commit, which the
 * re-read then sees.
 */
export async function ensureConsoleUser(trx: Kysely<Database>, clock: Clock, email: string, displayName?: string): Promise<ConsoleAccount> {
  const address = email.trim().toLowerCase();
  const read = () => trx.selectFrom("consoleUsers").select(["id", "displayName", "passwordHash"]).where("email", "=", address).executeTakeFirst();
  const found = await read();
  if (found !== undefined) return { ...found, created: false };
  const now = isoNow(clock);
  const inserted = await trx
    .insertInto("consoleUsers")
    .values({ id: newId("usr", clock.now()), email: address, displayName: displayName ?? null, passwordHash: null, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column("email").doNothing())
    .returning(["id", "displayName", "passwordHash"])
    .executeTakeFirst();
  if (inserted !== undefined) return { ...inserted, created: true };
  const concurrent = await read();
  if (concurrent === undefined) throw new ApiError("write_conflict");
  return { ...concurrent, created: false };
}
