import type { AdminFeatureRequest, BoardColumn } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { navigate } from "../router.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { ListStatus } from "../components/ListStatus.js";
import { SearchForm, SearchInput, useSearch } from "../components/SearchForm.js";
import { choices, Select } from "../components/Select.js";
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

/** Triage: the pending queue with bulk approve / decline, and every request with search, filter, sort and move. */
export function Requests(props: { wsId: string; appId: string }) {
  const base = `/workspaces/${props.wsId}`;
  const [tab, setTab] = useState<"pending" | "all">("pending");
  const search = useSearch();
  const [sort, setSort] = useState<(typeof SORTS)[number]>("newest");
  const [columnId, setColumnId] = useState("");
  const [currency, setCurrency] = useState("USD");
  const { offset, setOffset, refilter } = useOffset();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const columns = useLoad(() => api<{ columns: BoardColumn[] }>("GET", `${base}/apps/${props.appId}/columns`), [props.wsId, props.appId]);
  const list = useLoad(() => {
    const params = new URLSearchParams({ appId: props.appId, limit: String(PAGE), offset: String(offset), sort });
    if (tab === "pending") params.set("moderation", "pending");
    if (search.query !== "") params.set("q", search.query);
    if (columnId !== "" && tab === "all") params.set("columnId", columnId);
    if (sort === "company_revenue") params.set("currency", currency);
    return api<List>("GET", `${base}/feature-requests?${params.toString()}`);
  }, [props.wsId, props.appId, tab, search.query, sort, currency, columnId, offset]);

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
  const bulk = async (action: "approve" | "decline") => {
    setFailure(null);
    try {
      const answer = await api<{ updatedCount: number }>("POST", `${base}/feature-requests/bulk-moderate`, { ids: [...selected], action });
      setNotice(t("requests.updated", { count: answer.updatedCount }));
      setSelected(new Set());
    } catch (error) {
      setFailure(error);
    }
    list.reload();
  };
  const move = async (id: string, target: string) => {
    setFailure(null);
    try {
      await api("PUT", `${base}/feature-requests/${id}`, { columnId: target });
    } catch (error) {
      setFailure(error);
    }
    list.reload();
  };
  const requests = list.data?.requests ?? [];
  const columnChoices = (columns.data?.columns ?? []).map((c) => ({ value: c.id, label: c.name }));
  const allSelected = requests.length > 0 && requests.every((r) => selected.has(r.id));

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
      <SearchForm onSearch={() => (setOffset(0), search.submit())}>
        <SearchInput value={search.text} onChange={search.setText} />
        <LabelledSelect label={t("requests.sort")} value={sort} choices={choices(SORTS, (s) => t(`requests.sort.${s}`))} onChange={refilter((value) => setSort(value as (typeof SORTS)[number]))} />
        {sort === "company_revenue" ? (
          <LabelledSelect label={t("requests.currency")} value={currency} choices={CURRENCIES.map((c) => ({ value: c, label: c }))} onChange={refilter(setCurrency)} />
        ) : null}
        {tab === "all" ? (
          <LabelledSelect label={t("requests.column")} value={columnId} choices={[{ value: "", label: t("requests.anyColumn") }, ...columnChoices]} onChange={refilter(setColumnId)} />
        ) : null}
      </SearchForm>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
      {tab === "pending" && requests.length > 0 ? (
        <div className="bulk-bar">
          <label className="check">
            <input type="checkbox" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(requests.map((r) => r.id)))} /> {t("requests.selectAll")}
          </label>
          <button type="button" className="primary" disabled={selected.size === 0} onClick={() => void bulk("approve")}>
            {t("requests.approveSelected")}
          </button>
          <button type="button" disabled={selected.size === 0} onClick={() => void bulk("decline")}>
            {t("requests.declineSelected")}
          </button>
        </div>
      ) : null}
      <ListStatus list={list} count={requests.length} empty={tab === "pending" ? t("requests.emptyPending") : t("requests.empty")} showLoading />
      <ul className="rows">
        {requests.map((r) => (
          <li key={r.id} className="row" data-testid="request-row">
            {tab === "pending" ? <input type="checkbox" aria-label={r.title} checked={selected.has(r.id)} onChange={() => toggle(r.id)} /> : null}
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
                {r.requesterEmail === null ? "" : ` · ${r.requesterEmail}`}
                {r.companyCount === 0 && r.companyRevenue.length === 0 ? "" : ` · ${t("requests.companies", { count: r.companyCount })} · ${formatRevenue(r.companyRevenue)}`}
              </small>
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
