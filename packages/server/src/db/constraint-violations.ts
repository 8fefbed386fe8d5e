/**
 * Recognises a foreign-key violation raised by either engine: PostgreSQL's SQLSTATE 23503 or
 * better-sqlite3's `SQLITE_CONSTRAINT_FOREIGNKEY`. Every foreign key of the schema cascades or
 * nulls on delete, so the violation can only come from an insert or update naming a row that is
 * missing: an id from the client that a route did not check, or one deleted by a concurrent
 * request between the check and the write.
 *
 * @example
 * ```ts
 * if (isForeignKeyViolation(error)) reply.code(409);
 * ```
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return codeOf(error) === "23503" || codeOf(error) === "SQLITE_CONSTRAINT_FOREIGNKEY";
}

/**
 * Recognises a unique-key violation raised by either engine (PostgreSQL's SQLSTATE 23505,
 * better-sqlite3's `SQLITE_CONSTRAINT_UNIQUE` or `SQLITE_CONSTRAINT_PRIMARYKEY`), optionally only
 * one whose key includes `column` (snake_case, as on disk). Routes check for a clash before they
 * write; the violation means a concurrent request wrote the same key between that check and the
 * write.
 *
 * @example
 * ```ts
 * await trx.updateTable("apps").set({ slug }).where("id", "=", id).execute()
 *   .catch((error) => { throw isUniqueViolation(error, "slug") ? new ApiError("slug_taken") : error; });
 * ```
 */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  const code = codeOf(error);
  if (code !== "23505" && code !== "SQLITE_CONSTRAINT_UNIQUE" && code !== "SQLITE_CONSTRAINT_PRIMARYKEY") return false;
  return column === undefined || uniqueViolationColumns(error).includes(column);
}

/**
 * The columns of the key a unique violation is about, as the engine names them: PostgreSQL's
 * `detail` ("Key (workspace_id, slug)=(…) already exists."), SQLite's message ("UNIQUE constraint
 * failed: apps.workspace_id, apps.slug"). Empty when the error does not say.
 */
export function uniqueViolationColumns(error: unknown): string[] {
  if (typeof error !== "object" || error === null) return [];
  const { detail, message } = error as { detail?: unknown; message?: unknown };
  const postgres = typeof detail === "string" ? /^Key \(([^)]*)\)=/.exec(detail)?.[1] : undefined;
  if (postgres !== undefined) return postgres.split(",").map((c) => c.trim().replace(/^"|"$/g, ""));
  const sqlite = typeof message === "string" ? /constraint failed: (.*)$/.exec(message)?.[1] : undefined;
  if (sqlite !== undefined) return sqlite.split(",").map((c) => c.trim().split(".").pop() ?? "");
  return [];
}

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

/**
 * Recognises PostgreSQL's deadlock error (SQLSTATE 40P01): two transactions each waited for a
 * lock the other held, and the server failed a statement of one of them to break the cycle.
 * Running that transaction's work again succeeds once the other has finished. SQLite, with one
 * writer, has none.
 */
export function isDeadlock(error: unknown): boolean {
  return codeOf(error) === "40P01";
}
