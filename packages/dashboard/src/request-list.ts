import type { FieldFilterValue } from "./components/FieldFilter.js";

/** What the console list is narrowed to. */
export interface RequestFilters {
  tab: "pending" | "all";
  q: string;
  sort: string;
  /** The currency `company_revenue` counts in (ISO 4217). */
  currency?: string;
  columnId: string;
  boardId: string;
  tagIds: readonly string[];
  fields: readonly FieldFilterValue[];
  /** A plan a voter is on (their company's, else their own). */
  plan?: string;
  /** A company (`co_…`) whose users voted. */
  companyId?: string;
  /** A segment (`seg_…`) at least one of whose members voted. */
  segmentId?: string;
  /** At least this company revenue, in `currency` units (as typed). */
  minCompanyRevenue?: string;
  /** At least this many voting companies (as typed). */
  minCompanies?: string;
}

/**
 * The console list's query for the filters: the pending tab asks for pending requests, the
 * column filter counts on the all tab only, tags and field values repeat.
 *
 * @example
 * ```ts
 * requestListParams("app_1", { ...filters, tagIds: ["tag_a", "tag_b"] }, { limit: 20, offset: 0 }).getAll("tagId"); // ["tag_a", "tag_b"]
 * ```
 */
export function requestListParams(appId: string, filters: RequestFilters, page: { limit: number; offset: number }): URLSearchParams {
  const params = new URLSearchParams({ appId, limit: String(page.limit), offset: String(page.offset), sort: filters.sort });
  if (filters.tab === "pending") params.set("moderation", "pending");
  if (filters.q !== "") params.set("q", filters.q);
  if (filters.columnId !== "" && filters.tab === "all") params.set("columnId", filters.columnId);
  const minRevenue = wholeOrDecimal(filters.minCompanyRevenue);
  if ((filters.sort === "company_revenue" || minRevenue !== undefined) && filters.currency !== undefined) params.set("currency", filters.currency);
  if (minRevenue !== undefined) params.set("minCompanyRevenue", String(minRevenue));
  const minCompanies = wholeOrDecimal(filters.minCompanies);
  if (minCompanies !== undefined && Number.isInteger(minCompanies) && minCompanies >= 1) params.set("minCompanies", String(minCompanies));
  if (filters.plan !== undefined && filters.plan.trim() !== "") params.set("plan", filters.plan.trim());
  if (filters.companyId !== undefined && filters.companyId !== "") params.set("companyId", filters.companyId);
  if (filters.segmentId !== undefined && filters.segmentId !== "") params.set("segmentId", filters.segmentId);
  if (filters.boardId !== "") params.set("boardId", filters.boardId);
  for (const tagId of filters.tagIds) params.append("tagId", tagId);
  for (const field of filters.fields) params.append(`field.${field.key}`, field.value);
  return params;
}

/** A typed non-negative number, or undefined when the box is empty or holds something else. */
function wholeOrDecimal(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
