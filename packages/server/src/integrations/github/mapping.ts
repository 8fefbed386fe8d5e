import type { ColumnRow } from "../../roadmap/columns.js";
import type { TrackerConnectionRow } from "../trackers/adapter.js";
import type { GithubWebhookJobPayload } from "./webhook-events.js";

/** A label and the column (id) it moves a request to. */
export interface LabelColumn {
  label: string;
  columnId: string;
}

/** Where a GitHub connection's issue changes move requests (column ids; null: the default). */
export interface GithubMapping {
  /** Closed as completed; null: the app's first done column. */
  closedColumnId: string | null;
  /** Reopened; null: no move. */
  reopenedColumnId: string | null;
  labelColumns: LabelColumn[];
}

/** A connection's column mapping. */
export function githubMappingOf(row: Pick<TrackerConnectionRow, "mapping">): GithubMapping {
  return JSON.parse(row.mapping) as GithubMapping;
}

/** The column an issue closed as completed moves a request to: the chosen one, else the app's first done column. */
export function closedColumnOf(mapping: GithubMapping, columns: readonly ColumnRow[]): ColumnRow | undefined {
  return columns.find((c) => c.id === mapping.closedColumnId) ?? columns.find((c) => c.kind === "done");
}

/** The column a label (case-insensitive) moves a request to, if the connection maps it. */
export function labelColumnOf(mapping: GithubMapping, label: string, columns: readonly ColumnRow[]): ColumnRow | undefined {
  const mapped = mapping.labelColumns.find((l) => l.label.toLowerCase() === label.toLowerCase());
  return mapped === undefined ? undefined : columns.find((c) => c.id === mapped.columnId);
}

/** The column a webhook job moves its request to under the connection's mapping; undefined: it stays. */
export function targetColumn(payload: GithubWebhookJobPayload, mapping: GithubMapping, columns: readonly ColumnRow[]): ColumnRow | undefined {
  switch (payload.action) {
    case "closed":
      // Closed as not planned or as a duplicate moves nothing.
      return payload.stateReason === "completed" || payload.stateReason === null ? closedColumnOf(mapping, columns) : undefined;
    case "reopened":
      return columns.find((c) => c.id === mapping.reopenedColumnId);
    case "labeled":
      return payload.label === null ? undefined : labelColumnOf(mapping, payload.label, columns);
  }
}
