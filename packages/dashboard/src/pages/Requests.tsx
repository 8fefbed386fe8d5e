import type { AdminFeatureRequest, Board, BoardColumn, Company, CustomField, Tag } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { navigate } from "../router.js";
import { FieldFilter, type FieldFilterValue } from "../components/FieldFilter.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { useSegmentChoices } from "../components/useSegments.js";
import { ListStatus } from "../components/ListStatus.js";
import { SearchForm, SearchInput, useSearch } from "../components/SearchForm.js";
import { choices, Select } from "../components/Select.js";
import { TagChip } from "../components/TagChip.js";
import { TagFilter } from "../components/TagFilter.js";
import { ErrorBanner, Notice, Pager, useLoad } from "../components/ui.js";
import { useOffset } from "../components/useOffset.js";
import { t } from "../i18n/t.js";
import { formatRevenue } from "./EndUsers.js";

const PAGE = 20;
const SORTS = ["newest", "votes", "revenue", "paying_voters", "company_revenue", "company_count"] as const;
/** The currencies a company-revenue sort can count in (ISO 4217, as the browser knows them). */
const CURRENCIES: readonly string[] = Intl.supportedValuesOf("currency");

interface List {
  requests: AdminFeatureRequest[];
  total: number;
  pendingTotal: number;
}

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

/** Triage: the pending queue and every request, with search, filters, sort, bulk moderation, tagging and moves. */
export function Requests(props: { wsId: string; appId: string }) {
  const base = `/workspaces/${props.wsId}`;
  const appBase = `${base}/apps/${props.appId}`;
  const [tab, setTab] = useState<"pending" | "all">("pending");
  const search = useSearch();
  const [sort, setSort] = useState<(typeof SORTS)[number]>("newest");
  const [columnId, setColumnId] = useState("");
  const [boardId, setBoardId] = useState("");
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [fieldFilters, setFieldFilters] = useState<FieldFilterValue[]>([]);
  const [currency, setCurrency] = useState("USD");
  const [companyId, setCompanyId] = useState("");
  const [segmentId, setSegmentId] = useState("");
  const segments = useSegmentChoices(props.wsId, props.appId, t("segments.anyone"));
  // Typed filters apply with the search, as the search text does.
  const [typed, setTyped] = useState({ plan: "", minCompanyRevenue: "", minCompanies: "" });
  const [applied, setApplied] = useState(typed);
  const { offset, setOffset, refilter } = useOffset();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulkTag, setBulkTag] = useState("");
  const [bulkBoard, setBulkBoard] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [bulkFailure, setBulkFailure] = useState<unknown>(null);
  const columns = useLoad(() => api<{ columns: BoardColumn[] }>("GET", `${appBase}/columns`), [props.wsId, props.appId]);
  const boards = useLoad(() => api<{ boards: Board[] }>("GET", `${appBase}/boards`), [props.wsId, props.appId]);
  const tags = useLoad(() => api<{ tags: Tag[] }>("GET", `${appBase}/tags`), [props.wsId, props.appId]);
  const fields = useLoad(() => api<{ fields: CustomField[] }>("GET", `${appBase}/fields`), [props.wsId, props.appId]);
  const companies = useLoad(() => api<{ companies: Company[] }>("GET", `${appBase}/companies?limit=200&sort=mrr`), [props.wsId, props.appId]);
  const filters: RequestFilters = { tab, q: search.query, sort, currency, columnId, boardId, tagIds, fields: fieldFilters, companyId, segmentId, ...applied };
  const list = useLoad(
    () => api<List>("GET", `${base}/feature-requests?${requestListParams(props.appId, filters, { limit: PAGE, offset }).toString()}`),
    [props.wsId, props.appId, tab, search.query, sort, currency, columnId, boardId, tagIds, fieldFilters, companyId, segmentId, applied, offset],
  );

  const switchTab = (next: "pending" | "all") => {
    setTab(next);
    setOffset(0);
    setSelected(new Set());
    setNotice(null);
  };
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const requests = list.data?.requests ?? [];
  // Only rows still on the page count: a move or a filter may have taken the others away.
  const chosen = requests.filter((r) => selected.has(r.id)).map((r) => r.id);
  const bulk = async (work: () => Promise<string>, clear = false) => {
    setFailure(null);
    setBulkFailure(null);
    setNotice(null);
    try {
      setNotice(await work());
      if (clear) setSelected(new Set());
    } catch (error) {
      setBulkFailure(error);
    }
    list.reload();
    tags.reload();
  };
  const moderate = (action: "approve" | "decline") =>
    bulk(async () => {
      const answer = await api<{ updatedCount: number }>("POST", `${base}/feature-requests/bulk-moderate`, { ids: chosen, action });
      return t("requests.updated", { count: answer.updatedCount });
    }, true);
  const tagSelected = (change: "add" | "remove") =>
    bulk(async () => {
      const answer = await api<{ added: number; removed: number }>("POST", `${appBase}/feature-requests/tags`, { featureRequestIds: chosen, [change]: [bulkTag] });
      return change === "add" ? t("requests.tagged", { count: answer.added }) : t("requests.untagged", { count: answer.removed });
    });
  const moveSelected = () =>
    bulk(async () => {
      const answer = await api<{ moved: number }>("POST", `${appBase}/feature-requests/move`, { boardId: bulkBoard, featureRequestIds: chosen });
      return t("requests.moved", { count: answer.moved });
    });
  const move = async (id: string, target: string) => {
    setFailure(null);
    try {
      await api("PUT", `${base}/feature-requests/${id}`, { columnId: target });
    } catch (error) {
      setFailure(error);
    }
    list.reload();
  };
  const columnChoices = (columns.data?.columns ?? []).map((c) => ({ value: c.id, label: c.name }));
  const boardList = boards.data?.boards ?? [];
  const boardChoices = boardList.map((b) => ({ value: b.id, label: b.name }));
  const tagList = tags.data?.tags ?? [];
  const requestFields = (fields.data?.fields ?? []).filter((f) => f.appliesTo.includes("feature_request"));
  const allSelected = requests.length > 0 && requests.every((r) => selected.has(r.id));
  const none = chosen.length === 0;

  return (
    <section aria-labelledby="requests-title">
      <h1 id="requests-title">{t("requests.title")}</h1>
      <div role="tablist" className="tabs">
        <button role="tab" type="button" aria-selected={tab === "pending"} onClick={() => switchTab("pending")}>
          {t("requests.pending", { count: list.data?.pendingTotal ?? 0 })}
        </button>
        <button role="tab" type="button" aria-selected={tab === "all"} onClick={() => switchTab("all")}>
          {t("requests.all")}
        </button>
      </div>
      <SearchForm onSearch={() => (setOffset(0), setApplied(typed), search.submit())}>
        <SearchInput value={search.text} onChange={search.setText} />
        <label>
          {t("requests.plan")} <input value={typed.plan} maxLength={64} onChange={(e) => setTyped({ ...typed, plan: e.target.value })} />
        </label>
        <label>
          {t("requests.minCompanyRevenue")} <input type="number" min={0} step="any" value={typed.minCompanyRevenue} onChange={(e) => setTyped({ ...typed, minCompanyRevenue: e.target.value })} />
        </label>
        <label>
          {t("requests.minCompanies")} <input type="number" min={1} step={1} value={typed.minCompanies} onChange={(e) => setTyped({ ...typed, minCompanies: e.target.value })} />
        </label>
        {(companies.data?.companies.length ?? 0) > 0 ? (
          <LabelledSelect
            label={t("requests.company")}
            value={companyId}
            choices={[{ value: "", label: t("requests.anyCompany") }, ...(companies.data?.companies ?? []).map((c) => ({ value: c.id, label: c.name ?? c.externalId }))]}
            onChange={refilter(setCompanyId)}
          />
        ) : null}
        <LabelledSelect label={t("requests.sort")} value={sort} choices={choices(SORTS, (s) => t(`requests.sort.${s}`))} onChange={refilter((value) => setSort(value as (typeof SORTS)[number]))} />
        {sort === "company_revenue" || typed.minCompanyRevenue !== "" ? (
          <LabelledSelect label={t("requests.currency")} value={currency} choices={CURRENCIES.map((c) => ({ value: c, label: c }))} onChange={refilter(setCurrency)} />
        ) : null}
        {tab === "all" ? (
          <LabelledSelect label={t("requests.column")} value={columnId} choices={[{ value: "", label: t("requests.anyColumn") }, ...columnChoices]} onChange={refilter(setColumnId)} />
        ) : null}
        {boardList.length > 1 ? <LabelledSelect label={t("requests.board")} value={boardId} choices={[{ value: "", label: t("requests.anyBoard") }, ...boardChoices]} onChange={refilter(setBoardId)} /> : null}
        <TagFilter tags={tagList} selected={tagIds} onChange={refilter(setTagIds)} />
        {segments.segments.length === 0 ? null : <LabelledSelect label={t("segments.filter")} value={segmentId} choices={segments.choices} onChange={refilter(setSegmentId)} />}
        <FieldFilter fields={requestFields} filters={fieldFilters} onChange={refilter(setFieldFilters)} />
      </SearchForm>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
      {requests.length > 0 ? (
        <div className="bulk-bar" role="group" aria-label={t("requests.bulk")}>
          <label className="check">
            <input type="checkbox" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(requests.map((r) => r.id)))} /> {t("requests.selectAll")}
          </label>
          <span className="hint">{t("requests.selected", { count: chosen.length })}</span>
          {tab === "pending" ? (
            <>
              <button type="button" className="primary" disabled={none} onClick={() => void moderate("approve")}>
                {t("requests.approveSelected")}
              </button>
              <button type="button" disabled={none} onClick={() => void moderate("decline")}>
                {t("requests.declineSelected")}
              </button>
            </>
          ) : null}
          {tagList.length > 0 ? (
            <span className="bulk-group">
              <LabelledSelect label={t("requests.bulkTag")} value={bulkTag} choices={[{ value: "", label: "—" }, ...tagList.map((tag) => ({ value: tag.id, label: tag.name }))]} onChange={setBulkTag} />
              <button type="button" disabled={none || bulkTag === ""} onClick={() => void tagSelected("add")}>
                {t("requests.addTag")}
              </button>
              <button type="button" disabled={none || bulkTag === ""} onClick={() => void tagSelected("remove")}>
                {t("requests.removeTag")}
              </button>
            </span>
          ) : null}
          {boardList.length > 1 ? (
            <span className="bulk-group">
              <LabelledSelect label={t("requests.bulkBoard")} value={bulkBoard} choices={[{ value: "", label: "—" }, ...boardChoices]} onChange={setBulkBoard} />
              <button type="button" disabled={none || bulkBoard === ""} onClick={() => void moveSelected()}>
                {t("requests.moveSelected")}
              </button>
            </span>
          ) : null}
          <ErrorBanner error={bulkFailure} />
        </div>
      ) : null}
      <ListStatus list={list} count={requests.length} empty={tab === "pending" ? t("requests.emptyPending") : t("requests.empty")} showLoading />
      <ul className="rows">
        {requests.map((r) => (
          <li key={r.id} className="row" data-testid="request-row">
            <input type="checkbox" aria-label={r.title} checked={selected.has(r.id)} onChange={() => toggle(r.id)} />
            <div className="row-main">
              <a
                href={`/admin/w/${props.wsId}/a/${props.appId}/requests/${r.id}`}
                aria-label={t("detail.open", { title: r.title })}
                onClick={(e) => (e.preventDefault(), navigate(`/admin/w/${props.wsId}/a/${props.appId}/requests/${r.id}`))}
              >
                <strong>{r.title}</strong>
              </a>
              <small>
                {t("requests.votes", { count: r.voteCount })} · {r.columnName ?? "—"}
                {boardList.length > 1 ? ` · ${boardList.find((b) => b.id === r.boardId)?.name ?? "—"}` : ""}
                {r.requesterEmail === null ? "" : ` · ${r.requesterEmail}`}
                {r.companyCount === 0 && r.companyRevenue.length === 0 ? "" : ` · ${t("requests.companies", { count: r.companyCount })} · ${formatRevenue(r.companyRevenue)}`}
              </small>
              {r.tags.length === 0 ? null : (
                <span className="chips">
                  {r.tags.map((tag) => (
                    <TagChip key={tag.id} tag={tag} />
                  ))}
                </span>
              )}
              {r.description === "" ? null : <p>{r.description}</p>}
            </div>
            {tab === "all" ? (
              <Select aria-label={`${t("requests.moveTo")}: ${r.title}`} value={r.columnId ?? ""} choices={columnChoices} onChange={(value) => void move(r.id, value)} />
            ) : null}
          </li>
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} total={list.data?.total ?? 0} onChange={setOffset} />
    </section>
  );
}
