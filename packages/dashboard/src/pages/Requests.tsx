import type { AdminFeatureRequest, Board, BoardColumn, CustomField, Tag } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { ErrorBanner, Notice, Pager, useLoad } from "../components/ui.js";
import { useOffset } from "../components/useOffset.js";
import { t } from "../i18n/t.js";
import { requestListParams, type RequestFilters } from "../request-list.js";
import { RequestBulkBar, useRequestBulk } from "./RequestBulkBar.js";
import { RequestFilterBar, useRequestFilterState } from "./RequestFilterBar.js";
import { RequestRow } from "./RequestRow.js";

const PAGE = 20;

interface List {
  requests: AdminFeatureRequest[];
  total: number;
  pendingTotal: number;
}

/** Triage: the pending queue and every request, with search, filters, sort, bulk moderation, tagging and moves. */
export function Requests(props: { wsId: string; appId: string }) {
  const base = `/workspaces/${props.wsId}`;
  const appBase = `${base}/apps/${props.appId}`;
  const [tab, setTab] = useState<"pending" | "all">("pending");
  const chosenFilters = useRequestFilterState();
  const { search, sort, currency, columnId, boardId, tagIds, fieldFilters, companyId, segmentId, typed, applied } = chosenFilters;
  const { offset, setOffset, refilter } = useOffset();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const columns = useLoad(() => api<{ columns: BoardColumn[] }>("GET", `${appBase}/columns`), [props.wsId, props.appId]);
  const boards = useLoad(() => api<{ boards: Board[] }>("GET", `${appBase}/boards`), [props.wsId, props.appId]);
  const tags = useLoad(() => api<{ tags: Tag[] }>("GET", `${appBase}/tags`), [props.wsId, props.appId]);
  const fields = useLoad(() => api<{ fields: CustomField[] }>("GET", `${appBase}/fields`), [props.wsId, props.appId]);
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
  const bulk = useRequestBulk({
    wsId: props.wsId,
    appId: props.appId,
    chosen,
    onStart: () => setFailure(null),
    onNotice: setNotice,
    onClear: () => setSelected(new Set()),
    onDone: () => {
      list.reload();
      tags.reload();
    },
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
  const tagList = tags.data?.tags ?? [];
  const requestFields = (fields.data?.fields ?? []).filter((f) => f.appliesTo.includes("feature_request"));

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
      <RequestFilterBar
        wsId={props.wsId}
        appId={props.appId}
        tab={tab}
        state={chosenFilters}
        columnChoices={columnChoices}
        boards={boardList}
        tags={tagList}
        fields={requestFields}
        refilter={refilter}
        onSearch={() => (setOffset(0), chosenFilters.setApplied(typed), search.submit())}
      />
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
      {requests.length > 0 ? (
        <RequestBulkBar
          tab={tab}
          requests={requests}
          selected={selected}
          onSelect={setSelected}
          chosenCount={chosen.length}
          tags={tagList}
          boardChoices={boardList.map((b) => ({ value: b.id, label: b.name }))}
          bulk={bulk}
        />
      ) : null}
      <ListStatus list={list} count={requests.length} empty={tab === "pending" ? t("requests.emptyPending") : t("requests.empty")} showLoading />
      <ul className="rows">
        {requests.map((r) => (
          <RequestRow
            key={r.id}
            wsId={props.wsId}
            appId={props.appId}
            request={r}
            tab={tab}
            checked={selected.has(r.id)}
            onToggle={() => toggle(r.id)}
            boards={boardList}
            columnChoices={columnChoices}
            onMove={(value) => void move(r.id, value)}
          />
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} total={list.data?.total ?? 0} onChange={setOffset} />
    </section>
  );
}
