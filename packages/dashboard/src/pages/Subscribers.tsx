import { useState } from "react";
import { api } from "../api.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { ListStatus } from "../components/ListStatus.js";
import { SearchForm, SearchInput, useSearch } from "../components/SearchForm.js";
import { choices } from "../components/Select.js";
import { ErrorBanner, Notice, Pager, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { useOffset } from "../components/useOffset.js";
import { t } from "../i18n/t.js";

const PAGE = 25;
const STATUSES = ["pending", "confirmed", "unsubscribed"] as const;

interface Subscriber {
  id: string;
  email: string;
  status: (typeof STATUSES)[number];
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
}

/** Changelog subscribers of an app: filter, page, remove, export CSV. */
export function Subscribers(props: { wsId: string; appId: string }) {
  const base = `/workspaces/${props.wsId}/apps/${props.appId}/subscribers`;
  const [status, setStatus] = useState("");
  const search = useSearch();
  const { offset, setOffset, refilter } = useOffset();
  const list = useLoad(() => {
    const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (status !== "") params.set("status", status);
    if (search.query !== "") params.set("q", search.query);
    return api<{ subscribers: Subscriber[]; total: number }>("GET", `${base}?${params.toString()}`);
  }, [base, status, search.query, offset]);
  const { failure, notice, run } = useAction(list.reload);
  const remove = async (s: Subscriber) => {
    if (!window.confirm(t("subscribers.removeConfirm", { email: s.email }))) return;
    await run(() => api("DELETE", `/workspaces/${props.wsId}/subscribers/${s.id}`), t("subscribers.removed"));
  };
  const rows = list.data?.subscribers ?? [];
  const exportUrl = `/api/v1/console${base}/export${status === "" ? "" : `?status=${status}`}`;

  return (
    <section aria-labelledby="subscribers-title">
      <h1 id="subscribers-title">{t("subscribers.title")}</h1>
      <p className="hint">{t("subscribers.intro")}</p>
      <SearchForm
        onSearch={() => (setOffset(0), search.submit())}
        actions={
          <a className="button" href={exportUrl} download>
            {t("subscribers.export")}
          </a>
        }
      >
        <LabelledSelect
          label={t("subscribers.status")}
          value={status}
          choices={[{ value: "", label: t("subscribers.anyStatus") }, ...choices(STATUSES, (s) => t(`subscribers.status.${s}`))]}
          onChange={refilter(setStatus)}
        />
        <SearchInput value={search.text} onChange={search.setText} />
      </SearchForm>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
      <ListStatus list={list} count={rows.length} empty={t("subscribers.empty")} showLoading />
      <ul className="rows">
        {rows.map((s) => (
          <li key={s.id} className="row" data-testid="subscriber-row">
            <div className="row-main">
              <strong>{s.email}</strong>
              <small>
                {t(`subscribers.status.${s.status}`)} · {t("subscribers.since", { date: new Date(s.createdAt).toLocaleDateString() })}
              </small>
            </div>
            <button type="button" className="danger" aria-label={`${t("subscribers.remove")} ${s.email}`} onClick={() => void remove(s)}>
              {t("subscribers.remove")}
            </button>
          </li>
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} total={list.data?.total ?? 0} onChange={setOffset} />
    </section>
  );
}
