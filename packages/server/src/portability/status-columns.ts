import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { searchText } from "../search/search-text.js";

/** Where a source status lands: a column, and whether the request is declined. */
export interface StatusTarget {
  columnId: string;
  declined: boolean;
}

/** The special target that declines a request (kept, hidden from the public) instead of placing it. */
export const DECLINED = "declined";

/**
 * Source status names (normalised: lower case, words) → column slug of the default roadmap, or
 * {@link DECLINED}. Covers Canny's and Fider's built-in statuses and the usual words of a CSV.
 */
export const DEFAULT_STATUS_MAP: Readonly<Record<string, string>> = {
  "": "under-review",
  open: "under-review",
  new: "under-review",
  "under review": "under-review",
  "needs review": "under-review",
  planned: "planned",
  "up next": "planned",
  "in progress": "in-progress",
  started: "in-progress",
  building: "in-progress",
  complete: "shipped",
  completed: "shipped",
  done: "shipped",
  shipped: "shipped",
  released: "shipped",
  closed: DECLINED,
  declined: DECLINED,
  rejected: DECLINED,
  "won t do": DECLINED,
  duplicate: DECLINED,
  deleted: DECLINED,
};

/** The column-mapping failed: a target names no column of the app. */
export class StatusMapError extends Error {}

/**
 * Resolves source statuses to the app's columns. `overrides` (from `--status-map`) win over the
 * defaults; a target is a column slug or name of the app, or `declined`. A status nobody maps goes
 * to the review column, and the caller is told once per name.
 */
export async function statusColumns(
  db: Kysely<Database>,
  appId: string,
  overrides: Record<string, string>,
): Promise<{ resolve(status: string | null): StatusTarget & { known: boolean } }> {
  const columns = await db.selectFrom("boardColumns").select(["id", "slug", "name", "kind"]).where("appId", "=", appId).orderBy("position").execute();
  const review = columns.find((c) => c.kind === "pending_review") ?? columns[0];
  if (review === undefined) throw new StatusMapError("the app has no roadmap columns");
  const byKey = new Map<string, string>();
  for (const c of columns) {
    byKey.set(c.slug, c.id);
    byKey.set(searchText(c.name), c.id);
  }
  const target = (to: string, strict: boolean): StatusTarget | undefined => {
    const key = searchText(to);
    if (key === DECLINED) return { columnId: review.id, declined: true };
    const id = byKey.get(to) ?? byKey.get(key) ?? byKey.get(key.replace(/ /g, "-"));
    if (id === undefined && strict) throw new StatusMapError(`"${to}" is not a column of the app (use a column's slug or name, or "declined")`);
    return id === undefined ? undefined : { columnId: id, declined: false };
  };
  const mapped = new Map<string, StatusTarget>();
  for (const [from, to] of Object.entries(DEFAULT_STATUS_MAP)) {
    const t = target(to, false);
    if (t !== undefined) mapped.set(from, t);
  }
  for (const [from, to] of Object.entries(overrides)) mapped.set(searchText(from), target(to, true)!);
  return {
    resolve(status) {
      const key = searchText(status ?? "");
      const hit = mapped.get(key) ?? byKey.get(key) ?? byKey.get(key.replace(/ /g, "-"));
      if (hit === undefined) return { columnId: review.id, declined: false, known: false };
      return typeof hit === "string" ? { columnId: hit, declined: false, known: true } : { ...hit, known: true };
    },
  };
}
