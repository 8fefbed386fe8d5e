import { TABLE_KEYS, type ArchiveTable, type LooseDb } from "./archive-format.js";
import { inScope, type ResolvedScope } from "./export-scope.js";

/** Every row of `table` in scope, read page by page in key order. */
export async function* rowsOf(db: LooseDb, table: ArchiveTable, scope: ResolvedScope, pageSize: number): AsyncGenerator<Record<string, unknown>> {
  const keys = TABLE_KEYS[table];
  let after: Record<string, unknown> | undefined;
  for (;;) {
    let query = inScope(db, table, db.selectFrom(table), scope).selectAll();
    const last = after;
    if (last !== undefined) {
      const [first, second] = keys as [string, string | undefined];
      query = query.where((eb) =>
        second === undefined
          ? eb(first, ">", last[first])
          : eb.or([eb(first, ">", last[first]), eb.and([eb(first, "=", last[first]), eb(second, ">", last[second])])]),
      );
    }
    for (const key of keys) query = query.orderBy(key);
    const page = (await query.limit(pageSize).execute()) as Record<string, unknown>[];
    yield* page;
    if (page.length < pageSize) return;
    after = page[page.length - 1];
  }
}

/** How many rows of `table` are in scope (the export's progress total). */
export async function countOf(db: LooseDb, table: ArchiveTable, scope: ResolvedScope): Promise<number> {
  const row = await inScope(db, table, db.selectFrom(table), scope)
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
