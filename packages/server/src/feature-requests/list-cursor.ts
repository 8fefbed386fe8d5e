import { decodeCursor, encodeCursor } from "./cursor.js";
import type { ListQuery } from "./list-query.js";
import type { After, OrderKey } from "./list-order.js";
import { searchTerms } from "../search/search-text.js";

/** Offsets past this are clamped (deep paging is what cursors are for). */
export const MAX_OFFSET = 10_000;

type Cursor =
  | { s: "newest"; c: string; i: string }
  | { s: "top"; v: number; c: string; i: string }
  | { s: "offset"; o: number; k: string };

/** Identifies the filters a cursor was issued for, so it cannot be replayed on another list. */
function listKey(query: ListQuery): string {
  return `${query.sort}|${query.versionId ?? ""}|${searchTerms(query.q ?? "").join(" ")}`;
}

/**
 * Where a page starts. `keyset` lists (`newest` and `top` without a search) page by a position
 * in their order, the others by an offset; a cursor of another list is refused (400
 * `invalid_cursor`).
 */
export function pageStart(query: ListQuery, keyset: boolean): { after: After | undefined; offset: number } {
  if (query.cursor === undefined) return { after: undefined, offset: Math.min(query.offset, MAX_OFFSET) };
  const k = listKey(query);
  if (keyset && query.sort === "newest") {
    const c = decodeCursor<{ s: string; c: string; i: string; k: string }>(query.cursor, { s: "string", c: "string", i: "string", k: "string" }, { s: "newest", k });
    return { after: { s: "newest", c: c.c, i: c.i }, offset: 0 };
  }
  if (keyset) {
    const c = decodeCursor<{ s: string; v: number; c: string; i: string; k: string }>(
      query.cursor,
      { s: "string", v: "number", c: "string", i: "string", k: "string" },
      { s: "top", k },
    );
    return { after: { s: "top", v: c.v, c: c.c, i: c.i }, offset: 0 };
  }
  return { after: undefined, offset: decodeCursor<{ s: string; o: number; k: string }>(query.cursor, { s: "string", o: "number", k: "string" }, { s: "offset", k }).o };
}

/** The cursor of the page after one that ends at `last`, `next` rows in for offset lists. */
export function cursorAfter(query: ListQuery, keyset: boolean, last: OrderKey, next: number): string {
  const k = listKey(query);
  const cursor: Cursor & { k: string } = !keyset
    ? { s: "offset", o: next, k }
    : query.sort === "top"
      ? { s: "top", v: last.voteCount, c: last.createdAt, i: last.id, k }
      : { s: "newest", c: last.createdAt, i: last.id, k };
  return encodeCursor(cursor);
}
