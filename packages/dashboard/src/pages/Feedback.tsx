import type { Membership } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { ErrorBoundary } from "../components/ErrorBoundary.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { ListStatus } from "../components/ListStatus.js";
import { SearchForm, SearchInput, useSearch } from "../components/SearchForm.js";
import { choices } from "../components/Select.js";
import { Empty, ErrorBanner, Notice, Pager, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { useOffset } from "../components/useOffset.js";
import { FILTERS, inboxParams, PLATFORMS, PRIORITIES, submissionLabel, type Submission } from "../feedback-inbox.js";
import { t } from "../i18n/t.js";
import { SubmissionDetail, type Detail } from "./SubmissionDetail.js";

const PAGE = 20;

/** The feedback inbox: filters, a paginated list, bulk triage, and the detail of one submission. */
export function Feedback(props: { wsId: string }) {
  const base = `/workspaces/${props.wsId}/submissions`;
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>("active");
  const search = useSearch();
  const { offset, setOffset, refilter } = useOffset();
  const [openId, setOpenId] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [platform, setPlatform] = useState("");
  const [priority, setPriority] = useState("");
  const [assignee, setAssignee] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const dateError = from !== "" && to !== "" && from > to;
  const members = useLoad(() => api<{ members: Membership[] }>("GET", `/workspaces/${props.wsId}/members`), [props.wsId]);
  const memberChoices = (members.data?.members ?? []).map((m) => ({ value: m.userId, label: m.displayName ?? m.email }));
  const list = useLoad(() => {
    if (dateError) return Promise.resolve({ submissions: [] as Submission[], total: 0 });
    const params = inboxParams({ status: filter, q: search.query, platform, priority, assignee, from, to }, { limit: PAGE, offset });
    return api<{ submissions: Submission[]; total: number }>("GET", `${base}?${params.toString()}`);
  }, [props.wsId, filter, search.query, platform, priority, assignee, from, to, offset]);
  const detail = useLoad(() => (openId === null ? Promise.resolve(null) : api<Detail>("GET", `${base}/${openId}`)), [openId]);
  const [note, setNote] = useState<string | null>(null);

  const { failure, notice, run: act } = useAction(() => {
    list.reload();
    detail.reload();
  });
  const bulk = (triageStatus: "resolved" | "archived") =>
    void act(async () => {
      const answer = await api<{ updatedCount: number }>("POST", `${base}/bulk-triage`, { submissionIds: [...selected], triageStatus });
      setSelected(new Set());
      return answer;
    });
  const submissions = list.data?.submissions ?? [];
  const open = detail.data ?? null;

  return (
    <section aria-labelledby="feedback-title" className="split">
      <div className="split-list">
        <h1 id="feedback-title">{t("feedback.title")}</h1>
        <SearchForm onSearch={() => (setOffset(0), search.submit())}>
          <LabelledSelect label={t("feedback.status")} value={filter} choices={choices(FILTERS, (f) => t(`feedback.status.${f}`))} onChange={refilter((value) => setFilter(value as (typeof FILTERS)[number]))} />
          <LabelledSelect label={t("feedback.platform")} value={platform} choices={[{ value: "", label: t("feedback.anyPlatform") }, ...choices(PLATFORMS)]} onChange={refilter(setPlatform)} />
          <LabelledSelect label={t("feedback.priority")} value={priority} choices={[{ value: "", label: t("feedback.anyPriority") }, ...choices(PRIORITIES)]} onChange={refilter(setPriority)} />
          <LabelledSelect
            label={t("feedback.assignee")}
            value={assignee}
            choices={[{ value: "", label: t("feedback.anyone") }, { value: "unassigned", label: t("feedback.unassigned") }, ...memberChoices]}
            onChange={refilter(setAssignee)}
          />
          <label>
            {t("feedback.fromDate")} <input type="date" value={from} aria-invalid={dateError} onChange={(e) => refilter(setFrom)(e.target.value)} />
          </label>
          <label>
            {t("feedback.toDate")} <input type="date" value={to} aria-invalid={dateError} onChange={(e) => refilter(setTo)(e.target.value)} />
          </label>
          <SearchInput value={search.text} onChange={search.setText} />
        </SearchForm>
        {dateError ? (
          <p className="field-error" role="alert">
            {t("feedback.dateOrder")}
          </p>
        ) : null}
        <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
        {notice === null ? null : <Notice>{notice}</Notice>}
        {selected.size > 0 ? (
          <div className="bulk-bar">
            <button type="button" onClick={() => bulk("resolved")}>
              {t("feedback.bulkResolve")}
            </button>
            <button type="button" onClick={() => bulk("archived")}>
              {t("feedback.bulkArchive")}
            </button>
          </div>
        ) : null}
        <ListStatus list={list} count={submissions.length} empty={t("feedback.empty")} />
        <ul className="rows">
          {submissions.map((s) => (
            <li key={s.submissionId} className={openId === s.submissionId ? "row row-open" : "row"} data-testid="submission-row">
              <input
                type="checkbox"
                aria-label={s.title ?? s.submissionId}
                checked={selected.has(s.submissionId)}
                onChange={() => {
                  const next = new Set(selected);
                  if (next.has(s.submissionId)) next.delete(s.submissionId);
                  else next.add(s.submissionId);
                  setSelected(next);
                }}
              />
              <button type="button" className="row-main link" onClick={() => (setOpenId(s.submissionId), setNote(null))} aria-expanded={openId === s.submissionId}>
                <strong>{submissionLabel(s)}</strong>
                <small>
                  {t(`feedback.status.${s.triageStatus}` as "feedback.status.open")} · {s.priority ?? ""} {s.appName}
                  {s.platform === null ? "" : ` · ${s.platform}`} · {new Date(s.createdAt).toLocaleString()}
                </small>
              </button>
            </li>
          ))}
        </ul>
        <Pager offset={offset} limit={PAGE} total={list.data?.total ?? 0} onChange={setOffset} />
      </div>
      <aside className="split-detail" aria-label="Submission">
        <ErrorBanner error={detail.error} />
        <ErrorBoundary resetKey={open}>
          {open === null ? (
            <Empty>{t("feedback.select")}</Empty>
          ) : (
            <SubmissionDetail wsId={props.wsId} open={open} memberChoices={memberChoices} note={note} onNote={setNote} act={act} />
          )}
        </ErrorBoundary>
      </aside>
    </section>
  );
}
