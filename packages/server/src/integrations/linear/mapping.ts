import type { ColumnRow } from "../../roadmap/columns.js";
import type { TrackerConnectionRow } from "../trackers/adapter.js";

/** The workflow state types that move a request. */
export type MappedStateType = "completed" | "started" | "canceled";

/** Where a Linear connection's state changes move requests (column ids; null: the default). */
export interface LinearMapping {
  completedColumnId: string | null;
  startedColumnId: string | null;
  canceledColumnId: string | null;
}

/** A connection's column mapping. */
export function linearMappingOf(row: Pick<TrackerConnectionRow, "mapping">): LinearMapping {
  return JSON.parse(row.mapping) as LinearMapping;
}

/**
 * The column an issue entering a state of `type` moves its request to: the chosen one, else
 * the default (completed: the first done column; started: the `in-progress` column; canceled: none).
 */
export function stateColumnOf(mapping: LinearMapping, type: string, columns: readonly ColumnRow[]): ColumnRow | undefined {
  switch (type) {
    case "completed":
      return columns.find((c) => c.id === mapping.completedColumnId) ?? columns.find((c) => c.kind === "done");
    case "started":
      return columns.find((c) => c.id === mapping.startedColumnId) ?? columns.find((c) => c.slug === "in-progress");
    case "canceled":
      return columns.find((c) => c.id === mapping.canceledColumnId);
    default:
      return undefined;
  }
}
