/**
 * Every column of a table, each named, for a prepared read of whole rows (see `preparedQuery`).
 * A statement that selects `*` is parsed and planned on every run on PostgreSQL (it is never
 * named, see named-statements.ts) and on SQLite looks up the schema's version on every run (see
 * statement-cache.ts); one that names its columns is prepared once and checks nothing. `columns`
 * must name every column of `T`, so a column a migration adds to the table's type fails the
 * build until it is listed here.
 *
 * @example
 * ```ts
 * const BOARD_COLUMNS = everyColumn<BoardsTable>({ id: true, appId: true, ... });
 * db.selectFrom("boards").select(BOARD_COLUMNS)
 * ```
 */
export function everyColumn<T>(columns: { readonly [K in keyof T & string]-?: true }): ReadonlyArray<keyof T & string> {
  return Object.freeze(Object.keys(columns) as Array<keyof T & string>);
}
