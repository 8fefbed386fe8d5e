import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";
import { newPublicUserId, tokenHash } from "../users/identity.js";
import type { SourcePerson } from "./import-records.js";

/** End users remembered by token before the cache starts over (bounds memory on huge imports). */
const USER_CACHE = 100_000;

/** Longest name kept, as for a name given with a proposal. */
const MAX_NAME = 100;

/** A person's name as shown here: trimmed, at most {@link MAX_NAME} characters, null when empty. */
export function displayName(person: SourcePerson | null): string | null {
  const name = person?.name?.trim() ?? "";
  return name === "" ? null : [...name].slice(0, MAX_NAME).join("");
}

/**
 * The token an imported person is known by: their email address (trimmed, lower case), so a host
 * app that identifies its users by email finds their imported votes; else `<source>:<id>`. Only
 * its SHA-256 is stored, as for every end user.
 */
export function personToken(source: string, person: SourcePerson | null): string | null {
  if (person === null) return null;
  const email = person.email?.trim().toLowerCase();
  if (email !== undefined && email !== "") return email;
  if (person.sourceId !== null && person.sourceId !== "") return `${source}:${person.sourceId}`;
  return null;
}

/**
 * The end users an import's people are, keyed by {@link personToken}: found, or created once per
 * token with the person's name and first date, as the app's other end users are.
 */
export class ImportedPeople {
  readonly #users = new Map<string, string>();

  constructor(
    private readonly trx: Kysely<Database>,
    private readonly clock: Clock,
    private readonly appId: string,
    private readonly source: string,
  ) {}

  /** The end-user id of each person (null for none), and how many end users this call created. */
  async endUsers(people: Array<SourcePerson | null>, createdAt: string[]): Promise<{ ids: Array<string | null>; created: number }> {
    const tokens = people.map((p) => personToken(this.source, p));
    const missing = new Map<string, { name: string | null; createdAt: string }>();
    tokens.forEach((t, i) => {
      if (t !== null && !this.#users.has(t) && !missing.has(t)) missing.set(t, { name: displayName(people[i] ?? null), createdAt: createdAt[i]! });
    });
    let created = 0;
    if (missing.size > 0) {
      if (this.#users.size + missing.size > USER_CACHE) this.#users.clear();
      const entries = [...missing];
      const inserted = await this.trx
        .insertInto("endUsers")
        .values(
          entries.map(([token, p]) => ({
            id: newId("eu", this.clock.now()),
            appId: this.appId,
            tokenHash: tokenHash(token),
            publicId: newPublicUserId(),
            createdAt: p.createdAt,
            lastSeenAt: p.createdAt,
            displayName: p.name,
          })),
        )
        .onConflict((oc) => oc.columns(["appId", "tokenHash"]).doNothing())
        .returning("id")
        .execute();
      created = inserted.length;
      const byHash = new Map(entries.map(([token]) => [tokenHash(token), token]));
      const rows = await this.trx
        .selectFrom("endUsers")
        .select(["id", "tokenHash"])
        .where("appId", "=", this.appId)
        .where("tokenHash", "in", [...byHash.keys()])
        .execute();
      for (const row of rows) this.#users.set(byHash.get(row.tokenHash)!, row.id);
    }
    return { ids: tokens.map((t) => (t === null ? null : (this.#users.get(t) ?? null))), created };
  }
}
