import type { Kysely } from "kysely";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import type { ConsoleAccount } from "../workspaces/console-accounts.js";

/** The account changed between the check of its password and the write: check again. */
export class AccountChanged extends Error {}

/**
 * Gives `account` the password `passwordHash` (and `name` when given), provided its password is
 * still `expectedHash`, the one the caller checked before writing; otherwise a concurrent request
 * gave it a password since, and this throws {@link AccountChanged}. On PostgreSQL the update waits
 * for such a concurrent writer and then sees its password.
 */
export async function setAccountPassword(
  trx: Kysely<Database>,
  ctx: Context,
  account: ConsoleAccount,
  name: string | undefined,
  passwordHash: string,
  expectedHash: string | null,
): Promise<void> {
  const updated = await trx
    .updateTable("consoleUsers")
    .set({ passwordHash, displayName: name ?? account.displayName, updatedAt: isoNow(ctx.clock) })
    .where("id", "=", account.id)
    .where((eb) => (expectedHash === null ? eb("passwordHash", "is", null) : eb("passwordHash", "=", expectedHash)))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new AccountChanged();
}
