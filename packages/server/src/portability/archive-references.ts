import type { Db } from "../db/database.js";
import { ArchiveError } from "./archive-error.js";
import { ARCHIVE_TABLES, loose, type ArchiveRow, type ArchiveTable } from "./archive-format.js";
import { REFERENCES } from "./archive-links.js";

/**
 * The references of an archive's rows, checked as the rows come: a row may point at a row of the
 * archive, never at a row of this server that the archive does not carry.
 */
export class ArchiveReferences {
  /** Ids of the archive's rows per table: what its other rows may point at. */
  readonly #ids = new Map<ArchiveTable, Set<string>>(ARCHIVE_TABLES.map((t) => [t, new Set<string>()]));
  /** References to rows of the same table that may come later, checked at the table's end. */
  #forward: { id: string; line: number; what: string }[] = [];
  readonly #absent = new Set<string>();

  constructor(private readonly db: Db) {}

  /** A row of `table` the archive's other rows may point at. */
  add(table: ArchiveTable, id: string): void {
    this.#ids.get(table)!.add(id);
  }

  /** Checks `row`'s references (those to rows of its own table that may come later, at the table's end). */
  async check(table: ArchiveTable, row: ArchiveRow, line: number): Promise<void> {
    for (const ref of REFERENCES[table] ?? []) {
      const value = row[ref.column];
      if (value === null && ref.nullable === true) continue;
      const what = `${table}.${ref.column}`;
      if (typeof value !== "string") throw new ArchiveError(`${what} must be an id`, line);
      if (this.#ids.get(ref.table)!.has(value)) continue;
      if (ref.kind === "later") this.#forward.push({ id: value, line, what });
      else if (ref.kind === "loose" && (value === "" || !(await this.#onServer(ref.table, value)))) continue;
      else throw new ArchiveError(`${what} points at ${value}, which is not in the archive`, line);
    }
  }

  /** At the end of `table`'s rows: refuses a reference to a later row that never came but is on this server. */
  async checkForward(table: ArchiveTable): Promise<void> {
    for (const ref of this.#forward) {
      if (!this.#ids.get(table)!.has(ref.id) && (await this.#onServer(table, ref.id))) throw new ArchiveError(`${ref.what} points at ${ref.id}, which is not in the archive`, ref.line);
    }
    this.#forward = [];
  }

  /** Whether `id` is a row of `table` anywhere on this server (a reference to it would reach outside the archive). */
  async #onServer(table: ArchiveTable, id: string): Promise<boolean> {
    if (this.#absent.has(`${table} ${id}`)) return false;
    const found = (await loose(this.db.kysely).selectFrom(table).select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
    if (!found) this.#absent.add(`${table} ${id}`);
    return found;
  }
}
