import { useState } from "react";
import { api } from "../api.js";
import { Empty, ErrorBanner, Notice, Pager, useLoad } from "../components/ui.js";
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
  const [q, setQ] = useState("");
  const [query, setQuery] = useState("");
  const [offset, setOffset] = useState(0);
  const [failure, setFailure] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useLoad(() => {
    const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (status !== "") params.set("status", status);
    if (query !== "") params.set("q", query);
    return api<{ subscribers: Subscriber[]; total: number }>("GET", `${base}?${params.toString()}`);
  }, [base, status, query, offset]);
  const remove = async (s: Subscriber) => {
    if (!window.confirm(t("subscribers.removeConfirm", { email: s.email }))) return;
    setFailure(null);
    setNotice(null);
    try {
      await api("DELETE", `/workspaces/${props.wsId}/subscribers/${s.id}`);
      setNotice(t("subscribers.removed"));
    } catch (error) {
      setFailure(error);
    }
    list.reload();
  };
  const rows = list.data?.subscribers ?? [];
  const exportUrl = `/api/v1/console${base}/export${status === "" ? "" : `?status=${status}`}`;

  return (
    <section aria-labelledby="subscribers-title">
      <h1 id="subscribers-title">{t("subscribers.title")}</h1>
      <p className="hint">{t("subscribers.intro")}</p>
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setQuery(q.trim());
        }}
      >
        <label>
          {t("subscribers.status")}{" "}
          <select value={status} onChange={(e) => (setStatus(e.target.value), setOffset(0))}>
            <option value="">{t("subscribers.anyStatus")}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`subscribers.status.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("common.search")} <input type="search" value={q} maxLength={200} onChange={(e) => setQ(e.target.value)} />
        </label>
        <button type="submit">{t("common.search")}</button>
        <a className="button" href={exportUrl} download>
          {t("subscribers.export")}
        </a>
      </form>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
      {list.loading && list.data === undefined ? <p>{t("common.loading")}</p> : null}
      {list.data !== undefined && rows.length === 0 ? <Empty>{t("subscribers.empty")}</Empty> : null}
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
