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
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}
