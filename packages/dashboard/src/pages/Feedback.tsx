import { truncateText, type Membership } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { ErrorBoundary } from "../components/ErrorBoundary.js";
import { JsonValue } from "../components/JsonValue.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { ListStatus } from "../components/ListStatus.js";
import { SearchForm, SearchInput, useSearch } from "../components/SearchForm.js";
import { choices } from "../components/Select.js";
import { Empty, ErrorBanner, Notice, Pager, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { useOffset } from "../components/useOffset.js";
import { t } from "../i18n/t.js";
import { FeedbackRequestLink } from "./FeedbackRequestLink.js";

const PAGE = 20;
const STATUSES = ["open", "in_progress", "resolved", "archived"] as const;
const FILTERS = ["active", ...STATUSES, "all"] as const;
const PLATFORMS = ["ios", "macos", "android", "universal", "web"] as const;
const PRIORITIES = ["!", "!!", "!!!"] as const;

/** The list query of the inbox filters; dates are whole UTC days, inclusive. */
export function inboxParams(filters: { status: string; q: string; platform: string; priority: string; assignee: string; from: string; to: string }, page: { limit: number; offset: number }): URLSearchParams {
  const params = new URLSearchParams({ limit: String(page.limit), offset: String(page.offset) });
  if (filters.status !== "all") params.set("triageStatus", filters.status);
  if (filters.q !== "") params.set("q", filters.q);
  if (filters.platform !== "") params.set("platform", filters.platform);
  if (filters.priority !== "") params.set("priority", filters.priority);
  if (filters.assignee !== "") params.set("assignedTo", filters.assignee);
  if (filters.from !== "") params.set("from", `${filters.from}T00:00:00.000Z`);
  if (filters.to !== "") params.set("to", `${filters.to}T23:59:59.999Z`);
  return params;
}

interface Submission {
  submissionId: string;
  appId: string;
  appName: string;
  title: string | null;
  description: string | null;
  reporterName: string | null;
  reporterEmail: string | null;
  platform: string | null;
  appVersion: string | null;
  priority: string | null;
  assignedTo: string | null;
  triageStatus: string;
  internalNote: string | null;
  attachmentCount: number;
  featureRequest: { featureRequestId: string; title: string; linkedAt: string } | null;
  createdAt: string;
}

/** The line naming a submission in the inbox: its title, else the start of its description, cut whole characters. */
export function submissionLabel(s: Pick<Submission, "submissionId" | "title" | "description">): string {
  return s.title ?? (s.description === null ? s.submissionId : truncateText(s.description, 80));
}

interface Detail {
  submission: Submission;
  /** Values are whatever JSON the reporting app sent (objects, arrays, numbers, null…). */
  metadata: { key: string; value: unknown; redacted: boolean; truncated: boolean }[];
  attachments: { attachmentId: string; kind: string; filename: string; mimeType: string; sizeBytes: number; url: string }[];
}

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
            <article data-testid="submission-detail">
              <h2>{open.submission.title ?? open.submission.submissionId}</h2>
              {open.submission.reporterName === null && open.submission.reporterEmail === null ? null : (
                <p>{t("feedback.from", { name: [open.submission.reporterName, open.submission.reporterEmail].filter(Boolean).join(" ") })}</p>
              )}
              <p className="description">{open.submission.description}</p>
              <FeedbackRequestLink wsId={props.wsId} submission={open.submission} act={act} />
              <div className="inline-form">
                <LabelledSelect
                  label={t("feedback.status")}
                  value={open.submission.triageStatus}
                  choices={choices(STATUSES, (s) => t(`feedback.status.${s}`))}
                  onChange={(value) => void act(() => api("PATCH", `${base}/${open.submission.submissionId}/triage`, { triageStatus: value }), t("common.saved"))}
                />
                <LabelledSelect
                  label={t("feedback.priority")}
                  value={open.submission.priority ?? ""}
                  choices={[{ value: "", label: t("feedback.none") }, ...choices(PRIORITIES)]}
                  onChange={(value) => void act(() => api("PUT", `${base}/${open.submission.submissionId}/priority`, { priority: value === "" ? null : value }), t("common.saved"))}
                />
                <LabelledSelect
                  label={t("feedback.assignee")}
                  value={open.submission.assignedTo ?? ""}
                  choices={[{ value: "", label: t("feedback.unassigned") }, ...memberChoices]}
                  onChange={(value) => void act(() => api("PUT", `${base}/${open.submission.submissionId}/assign`, { assignedTo: value === "" ? null : value }), t("common.saved"))}
                />
              </div>
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  const text = (note ?? open.submission.internalNote ?? "").trim();
                  void act(() => api("PUT", `${base}/${open.submission.submissionId}/note`, { internalNote: text === "" ? null : text }), t("common.saved"));
                }}
              >
                <label htmlFor="note">{t("feedback.note")}</label>
                <textarea id="note" value={note ?? open.submission.internalNote ?? ""} onChange={(e) => setNote(e.target.value)} />
                <button type="submit">{t("common.save")}</button>
              </form>
              {open.attachments.length === 0 ? null : (
                <>
                  <h3>{t("feedback.attachments")}</h3>
                  <ul className="attachments">
                    {open.attachments.map((a) => (
                      <li key={a.attachmentId}>
                        {a.mimeType.startsWith("image/") ? <img src={a.url} alt={a.filename} loading="lazy" /> : null}
                        <a href={a.url} download={a.filename}>
                          {t("feedback.download", { name: a.filename })}
                        </a>
                      </li>
                    ))}
                  </ul>
                </>
              )}
              <h3>{t("feedback.metadata")}</h3>
              <dl className="metadata">
                {[
                  ["platform", open.submission.platform ?? "—"] as const,
                  ["appVersion", open.submission.appVersion ?? "—"] as const,
                  ...open.metadata.map((m) => [m.key, m.redacted ? "[redacted]" : m.value] as const),
                ].map(([key, value], index) => (
                  <div key={`${index}:${key}`}>
                    <dt>{key}</dt>
                    <dd>
                      <JsonValue value={value} />
                    </dd>
                  </div>
                ))}
              </dl>
            </article>
          )}
        </ErrorBoundary>
      </aside>
    </section>
  );
}
