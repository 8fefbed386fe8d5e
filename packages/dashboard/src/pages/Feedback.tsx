import type { Membership } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { ErrorBoundary } from "../components/ErrorBoundary.js";
import { ListStatus } from "../components/ListStatus.js";
import { Empty, ErrorBanner, Notice, Pager, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { useOffset } from "../components/useOffset.js";
import { inboxParams, type Submission } from "../feedback-inbox.js";
import { t } from "../i18n/t.js";
import { FeedbackFilterBar, useFeedbackFilterState } from "./FeedbackFilterBar.js";
import { SubmissionDetail, type Detail } from "./SubmissionDetail.js";
import { SubmissionRow } from "./SubmissionRow.js";

const PAGE = 20;

/** The feedback inbox: filters, a paginated list, bulk triage, and the detail of one submission. */
export function Feedback(props: { wsId: string }) {
  const base = `/workspaces/${props.wsId}/submissions`;
  const filters = useFeedbackFilterState();
  const { filter, search, platform, priority, assignee, from, to, dateError } = filters;
  const { offset, setOffset, refilter } = useOffset();
  const [openId, setOpenId] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
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
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const submissions = list.data?.submissions ?? [];
  const open = detail.data ?? null;

  return (
    <section aria-labelledby="feedback-title" className="split">
      <div className="split-list">
        <h1 id="feedback-title">{t("feedback.title")}</h1>
        <FeedbackFilterBar state={filters} memberChoices={memberChoices} refilter={refilter} onSearch={() => (setOffset(0), search.submit())} />
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
            <SubmissionRow
              key={s.submissionId}
              submission={s}
              open={openId === s.submissionId}
              checked={selected.has(s.submissionId)}
              onToggle={() => toggle(s.submissionId)}
              onOpen={() => (setOpenId(s.submissionId), setNote(null))}
            />
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
