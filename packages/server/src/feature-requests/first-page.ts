import { PostgresAdapter, sql, type Kysely, type RawBuilder } from "kysely";
import { appIdOfKey } from "../apps/app-keys.js";
import { preparedQuery, type PreparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { itemRows, type ItemRow } from "./items.js";
import { approvedBy } from "./listed.js";
import { approvedInTopOrder } from "./list-order.js";
import type { ListQuery } from "./list-query.js";

/** A listing row as the page reads it: the item's columns and whether the viewer voted (0 here). */
export type PageRow = ItemRow & { requesterEndUserId: string | null; hasVoted: number };

/**
 * Whether `query` asks for the page every visitor of an app or board starts from: its first
 * `newest` or `top` page, anonymous, unsearched, on the whole app or one board, without a version
 * or tag filter. It is what a cold app's first read computes and what every write to the app
 * sends back to be computed, so it is read by one prepared statement (see `preparedQuery`): built
 * and compiled per call, its statement cost more than SQLite spent reading its 50 rows.
 */
export function isFirstPage(query: ListQuery): boolean {
  return (
    query.viewerEndUserId === null &&
    (query.q === undefined || query.q.trim() === "") &&
    (query.sort === "newest" || query.sort === "top") &&
    query.cursor === undefined &&
    query.offset === 0 &&
    query.versionId === undefined &&
    (query.tagIds?.length ?? 0) === 0 &&
    (query.boardIds === undefined || query.boardIds.length === 1)
  );
}

/** The rows of a first page (see {@link isFirstPage}), one more than `query.limit` to tell whether more follow. */
export function firstPageRows(db: Kysely<Database>, query: ListQuery): Promise<PageRow[]> {
  const limit = query.limit + 1;
  const board = query.boardIds?.[0];
  if (board === undefined) return (query.sort === "top" ? topOfApp : newestOfApp).rows(db, { appId: query.appId, limit });
  return (query.sort === "top" ? topOfBoard : newestOfBoard).rows(db, { boardId: board, limit });
}

/** How many page sizes a first page's statement is kept for with its LIMIT written in (PostgreSQL). */
const FIXED_SIZES = 8;

/**
 * A first page's prepared query, on PostgreSQL with the LIMIT written into the SQL for the first
 * {@link FIXED_SIZES} page sizes it is asked (in practice the SDKs' and the portal's few), bound for any other. A
 * bound LIMIT made PostgreSQL plan the statement on every execution: for an unknown LIMIT it costs a
 * generic plan as if a tenth of the rows were read, so each plan for the values at hand looked
 * cheaper, and every first page paid its planning (about 0.35 ms, five times its run on a board of
 * 10k requests). With the LIMIT known it keeps one plan per connection. The sizes are few so that
 * the named statements stay bounded whatever sizes callers ask. SQLite plans a statement once
 * whatever its LIMIT: one bound statement serves every size.
 */
function bySize<P extends { limit: number }, R>(prepare: (fixed: number | undefined) => PreparedQuery<P, R>) {
  const bound = prepare(undefined);
  const fixed = new Map<number, PreparedQuery<P, R>>();
  return {
    rows(db: Kysely<Database>, params: P): Promise<R[]> {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return bound.rows(db, params);
      let query = fixed.get(params.limit);
      if (query === undefined && fixed.size < FIXED_SIZES && Number.isSafeInteger(params.limit) && params.limit > 0) {
        fixed.set(params.limit, (query = prepare(params.limit)));
      }
      return (query ?? bound).rows(db, params);
    },
  };
}

/**
 * One first page's statement: the listing's filter ({@link approvedBy}, a board naming its app)
 * and its order, as the general listing writes them, so both read the same rows. A `top` page's
 * ids come from the copies of that order ({@link approvedInTopOrder}, migration 0046), read in order
 * from their index, and each request by its primary key.
 */
function firstPage<P extends { limit: number }>(sort: "newest" | "top", scope: (p: P) => Pick<ListQuery, "appId" | "boardIds">) {
  return bySize((fixed) => preparedQuery<P, PageRow>((db, p) => firstPageQuery(db, sort, scope(p as P), limitOf(p.limit, fixed))));
}

/** A first page's LIMIT: the parameter, or the size written into the SQL (see {@link bySize}). */
const limitOf = (bound: number, fixed: number | undefined): number | RawBuilder<number> => (fixed === undefined ? bound : sql.lit(fixed));

function firstPageQuery(db: Kysely<Database>, sort: "newest" | "top", scope: Pick<ListQuery, "appId" | "boardIds">, max: number | RawBuilder<number>) {
  const place = { ...scope, versionId: undefined };
  let page = itemRows(db).select(sql<number>`0`.as("hasVoted"));
  if (sort === "top") {
    page = page.where("fr.id", "in", approvedInTopOrder(db, place).select("ft.id").limit(max)).orderBy("fr.voteCount", "desc");
  } else {
    page = page.where(approvedBy(place));
  }
  return page.orderBy("fr.createdAt", "desc").orderBy("fr.id", "desc").limit(max);
}

const newestOfApp = firstPage<{ appId: string; limit: number }>("newest", (p) => ({ appId: p.appId, boardIds: undefined }));
const topOfApp = firstPage<{ appId: string; limit: number }>("top", (p) => ({ appId: p.appId, boardIds: undefined }));
// A board names its app: the listing's filter on one board reads the board alone.
const newestOfBoard = firstPage<{ boardId: string; limit: number }>("newest", (p) => ({ appId: "", boardIds: [p.boardId] }));
const topOfBoard = firstPage<{ boardId: string; limit: number }>("top", (p) => ({ appId: "", boardIds: [p.boardId] }));

/**
 * A whole app's first page as one statement reads it by the app's key (PostgreSQL): each row with
 * the app's listed count and its public tags (by name), so that nothing waits for the page's ids.
 * Empty when the key names no app or the app lists nothing.
 */
export type KeyedPageRow = PageRow & {
  listedTotal: number | string;
  /** `[name, slug, color]` of each public tag; null when it has none. */
  publicTags: Array<[string, string, string | null]> | null;
};

/** The rows of a whole app's first page by its key, one more than `limit` (see {@link KeyedPageRow}). */
export function firstPageRowsByAppKey(db: Kysely<Database>, appKey: string, sort: "newest" | "top", limit: number): Promise<KeyedPageRow[]> {
  return (sort === "top" ? topByKey : newestByKey).rows(db, { appKey, limit: limit + 1 });
}

function firstPageByKey(sort: "newest" | "top") {
  return bySize((fixed) => preparedQuery<{ appKey: string; limit: number }, KeyedPageRow>((db, p) => {
    // Written where the listing's filters take the app's id (see appIdOfKey).
    const appId = appIdOfKey(db, p.appKey) as unknown as string;
    const place = { appId, boardIds: undefined, versionId: undefined };
    return firstPageQuery(db, sort, place, limitOf(p.limit, fixed))
      .select((eb) => eb.selectFrom("featureRequests as fr").select((e) => e.fn.countAll<number>().as("n")).where(approvedBy(place)).as("listedTotal"))
      .select(
        sql<KeyedPageRow["publicTags"]>`(select json_agg(json_build_array(tg.name, tg.slug, tg.color) order by tg.name, tg.id)
          from feature_request_tags frt join tags tg on tg.id = frt.tag_id
          where frt.feature_request_id = fr.id and tg.visibility = 'public')`.as("publicTags"),
      );
  }));
}

const newestByKey = firstPageByKey("newest");
const topByKey = firstPageByKey("top");
