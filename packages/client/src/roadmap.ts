import type { BoardColumn, FeatureRequestItem } from "./types.js";

/** Id of the automatic tab holding requests of hidden, deleted or unknown columns. */
export const ROADMAP_OTHER_COLUMN_ID = "__tidings_other__";

/** One tab of the roadmap board. */
export interface RoadmapGroup {
  /** The column, or null for the automatic Other tab. */
  column: BoardColumn | null;
  id: string;
  requests: FeatureRequestItem[];
}

/**
 * Rule 7: visible columns by position, each with its requests, plus an Other tab (only when
 * needed) for requests whose column is hidden, deleted or not among the columns.
 *
 * @example
 * ```ts
 * groupRoadmapRequests(columns, page.requests).map((g) => g.column?.name ?? "Other");
 * ```
 */
export function groupRoadmapRequests(columns: readonly BoardColumn[], requests: readonly FeatureRequestItem[]): RoadmapGroup[] {
  const visible = columns.filter((c) => c.isVisible).sort((a, b) => a.position - b.position);
  const groups = new Map<string, RoadmapGroup>(visible.map((column) => [column.id, { column, id: column.id, requests: [] }]));
  const other: RoadmapGroup = { column: null, id: ROADMAP_OTHER_COLUMN_ID, requests: [] };
  const bySlug = new Map(visible.map((c) => [c.slug, c.id]));
  for (const request of requests) {
    // Legacy items carry no columnId, only a status equal to the column slug.
    const id = request.columnId ?? bySlug.get(request.status);
    const group = id === undefined || id === null ? undefined : groups.get(id);
    (group ?? other).requests.push(request);
  }
  return other.requests.length > 0 ? [...groups.values(), other] : [...groups.values()];
}
