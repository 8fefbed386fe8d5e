import type { Db } from "../db/database.js";
import { reindex } from "../search/search-index.js";
import { ArchiveError } from "./archive-error.js";
import { TABLE_KEYS, loose } from "./archive-format.js";
import { OWNER_COLUMN } from "./archive-links.js";
import type { Pending } from "./archive-rows.js";

/**
 * Writes an archive's rows in batches of one transaction each, keeping every id: a row whose key
 * is already there is left as it is (and counted as existing), unless it belongs elsewhere.
 */
export class ArchiveWriter {
  /** Rows added, per table. */
  readonly inserted: Record<string, number> = {};
  /** Rows already there (by key), per table. */
  readonly existing: Record<string, number> = {};
  /** The apps the archive holds. */
  readonly appIds = new Set<string>();
  #batch: Pending[] = [];
  readonly #consoleUsers = new Map<string, boolean>();

  constructor(
    private readonly db: Db,
    private readonly batchSize: number,
  ) {}

  /** Queues a row, and writes the batch once it is full. */
  async add(pending: Pending): Promise<void> {
    this.#batch.push(pending);
    if (this.#batch.length >= this.batchSize) await this.flush();
  }

  /** Writes the queued rows in one transaction. */
  async flush(): Promise<void> {
    if (this.#batch.length === 0) return;
    const rows = this.#batch;
    this.#batch = [];
    for (const pending of rows) {
      await this.#checkIdentity(pending);
      // Console accounts are not part of an archive: a team reply or an assignee whose account
      // is not on this server keeps its name but loses the link.
      if (pending.table === "featureRequestComments" && !(await this.#consoleUserExists(pending.row.teamUserId))) pending.row.teamUserId = null;
      if (pending.table === "submissions" && !(await this.#consoleUserExists(pending.row.assignedTo))) pending.row.assignedTo = null;
    }
    await this.db.sharedTransaction(async (trx) => {
      const t = loose(trx);
      for (const { table, row, line } of rows) {
        const keys = TABLE_KEYS[table];
        try {
          const added = await t
            .insertInto(table)
            .values(row)
            .onConflict((oc) => oc.columns(keys as string[]).doNothing())
            .returning(keys[0]!)
            .execute();
          if (added.length > 0) {
            this.inserted[table] = (this.inserted[table] ?? 0) + 1;
            if (table === "featureRequests") await reindex(trx, this.db.dialect, String(row.id));
          } else {
            this.existing[table] = (this.existing[table] ?? 0) + 1;
            const owner = OWNER_COLUMN[table];
            if (owner !== undefined) {
              const there = await t.selectFrom(table).select(owner).where("id", "=", row.id).executeTakeFirst();
              if (there !== undefined && there[owner] !== row[owner]) {
                throw new ArchiveError(`${table} ${String(row.id)} already exists here and belongs elsewhere`, line, true);
              }
            }
          }
        } catch (error) {
          if (error instanceof ArchiveError) throw error;
          throw new ArchiveError(`the database refused this ${table} row: ${error instanceof Error ? error.message : String(error)}`, line);
        }
      }
    });
  }

  /** Refuses an archive whose workspace slug or app key is taken here by a different row. */
  async #checkIdentity(pending: Pending): Promise<void> {
    const { table, row } = pending;
    if (table === "workspaces") {
      const other = await this.db.kysely.selectFrom("workspaces").select("id").where("slug", "=", String(row.slug)).executeTakeFirst();
      if (other !== undefined && other.id !== row.id) throw new ArchiveError(`workspace slug "${String(row.slug)}" belongs to another workspace on this server`, pending.line, true);
    }
    if (table === "apps") {
      const other = await this.db.kysely.selectFrom("apps").select("id").where("appKey", "=", String(row.appKey)).executeTakeFirst();
      if (other !== undefined && other.id !== row.id) throw new ArchiveError(`app key "${String(row.appKey)}" belongs to another app on this server`, pending.line, true);
      this.appIds.add(String(row.id));
    }
  }

  async #consoleUserExists(id: unknown): Promise<boolean> {
    if (typeof id !== "string") return false;
    const known = this.#consoleUsers.get(id);
    if (known !== undefined) return known;
    const found = (await this.db.kysely.selectFrom("consoleUsers").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
    this.#consoleUsers.set(id, found);
    return found;
  }
}
