import type { Board, Company, CustomField, Tag } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { FieldFilter, type FieldFilterValue } from "../components/FieldFilter.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { SearchForm, SearchInput, useSearch } from "../components/SearchForm.js";
import { choices, type Choice } from "../components/Select.js";
import { TagFilter } from "../components/TagFilter.js";
import { useLoad } from "../components/ui.js";
import { useSegmentChoices } from "../components/useSegments.js";
import { t } from "../i18n/t.js";

const SORTS = ["newest", "votes", "revenue", "paying_voters", "company_revenue", "company_count"] as const;
/** The currencies a company-revenue sort can count in (ISO 4217, as the browser knows them). */
const CURRENCIES: readonly string[] = Intl.supportedValuesOf("currency");

/** The filters of the request list as chosen; the typed ones apply with the search, as the search text does. */
export function useRequestFilterState() {
  const search = useSearch();
  const [sort, setSort] = useState<(typeof SORTS)[number]>("newest");
  const [columnId, setColumnId] = useState("");
  const [boardId, setBoardId] = useState("");
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [fieldFilters, setFieldFilters] = useState<FieldFilterValue[]>([]);
  const [currency, setCurrency] = useState("USD");
  const [companyId, setCompanyId] = useState("");
  const [segmentId, setSegmentId] = useState("");
  const [typed, setTyped] = useState({ plan: "", minCompanyRevenue: "", minCompanies: "" });
  const [applied, setApplied] = useState(typed);
  return { search, sort, setSort, columnId, setColumnId, boardId, setBoardId, tagIds, setTagIds, fieldFilters, setFieldFilters, currency, setCurrency, companyId, setCompanyId, segmentId, setSegmentId, typed, setTyped, applied, setApplied };
}

/** The request list's filter bar: search, typed thresholds, company, sort, currency, column (all tab), board, tags, segment and field values. */
export function RequestFilterBar(props: {
  wsId: string;
  appId: string;
  tab: "pending" | "all";
  state: ReturnType<typeof useRequestFilterState>;
  columnChoices: readonly Choice[];
  boards: readonly Board[];
  tags: readonly Tag[];
  fields: readonly CustomField[];
  /** Wraps a filter's setter so that changing the filter goes back to the first page. */
  refilter: <T>(set: (value: T) => void) => (value: T) => void;
  onSearch: () => void;
}) {
  const { refilter } = props;
  const { search, typed, setTyped, sort, currency, columnId, boardId, companyId, segmentId } = props.state;
  const appBase = `/workspaces/${props.wsId}/apps/${props.appId}`;
  const segments = useSegmentChoices(props.wsId, props.appId, t("segments.anyone"));
  const companies = useLoad(() => api<{ companies: Company[] }>("GET", `${appBase}/companies?limit=200&sort=mrr`), [props.wsId, props.appId]);
  const boardChoices = props.boards.map((b) => ({ value: b.id, label: b.name }));
  return (
    <SearchForm onSearch={props.onSearch}>
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
          onChange={refilter(props.state.setCompanyId)}
        />
      ) : null}
      <LabelledSelect label={t("requests.sort")} value={sort} choices={choices(SORTS, (s) => t(`requests.sort.${s}`))} onChange={refilter((value) => props.state.setSort(value as (typeof SORTS)[number]))} />
      {sort === "company_revenue" || typed.minCompanyRevenue !== "" ? (
        <LabelledSelect label={t("requests.currency")} value={currency} choices={CURRENCIES.map((c) => ({ value: c, label: c }))} onChange={refilter(props.state.setCurrency)} />
      ) : null}
      {props.tab === "all" ? (
        <LabelledSelect label={t("requests.column")} value={columnId} choices={[{ value: "", label: t("requests.anyColumn") }, ...props.columnChoices]} onChange={refilter(props.state.setColumnId)} />
      ) : null}
      {props.boards.length > 1 ? <LabelledSelect label={t("requests.board")} value={boardId} choices={[{ value: "", label: t("requests.anyBoard") }, ...boardChoices]} onChange={refilter(props.state.setBoardId)} /> : null}
      <TagFilter tags={props.tags} selected={props.state.tagIds} onChange={refilter(props.state.setTagIds)} />
      {segments.segments.length === 0 ? null : <LabelledSelect label={t("segments.filter")} value={segmentId} choices={segments.choices} onChange={refilter(props.state.setSegmentId)} />}
      <FieldFilter fields={props.fields} filters={props.state.fieldFilters} onChange={refilter(props.state.setFieldFilters)} />
    </SearchForm>
  );
}
