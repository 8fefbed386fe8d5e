import type { AdminFeatureRequest, Comment, FeatureRequestEvent, FeatureRequestVoter, LinkedFeedback, RequestCompany } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { useAction } from "../components/useAction.js";
import { ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { navigate } from "../router.js";
import type { FieldErrors } from "../settings-form.js";
import { LinkedFeedbackList } from "./LinkedFeedback.js";
import { RequestComments, useReplyDraft } from "./RequestComments.js";
import { RequestCompanies } from "./RequestCompanies.js";
import { RequestEditForm, validateRequest, type RequestDraft } from "./RequestEditForm.js";
import { RequestIssues } from "./RequestIssues.js";
import { RequestMerge } from "./RequestMerge.js";
import { RequestOrganize } from "./RequestOrganize.js";
import { RequestVoters } from "./RequestVoters.js";
import { VoteOnBehalf } from "./VoteOnBehalf.js";

interface Detail extends AdminFeatureRequest {
  events: FeatureRequestEvent[];
  voters: FeatureRequestVoter[];
  companies: RequestCompany[];
  feedback: LinkedFeedback[];
}

/** One feature request: edit, board, tags and custom field values, merge, delete, comments with moderation and team replies, voters. */
export function RequestDetail(props: { wsId: string; appId: string; requestId: string; canDelete: boolean }) {
  const base = `/workspaces/${props.wsId}/feature-requests`;
  const listPath = `/admin/w/${props.wsId}/a/${props.appId}/requests`;
  const detail = useLoad(() => api<Detail>("GET", `${base}/${props.requestId}`), [props.requestId]);
  const [limit, setLimit] = useState(50);
  const comments = useLoad(() => api<{ comments: Comment[]; total: number; hasMore: boolean }>("GET", `${base}/${props.requestId}/comments?limit=${limit}`), [props.requestId, limit]);
  const others = useLoad(
    () => api<{ requests: AdminFeatureRequest[] }>("GET", `${base}?appId=${props.appId}&limit=200&sort=votes`),
    [props.appId],
  );
  const [form, setForm] = useState<RequestDraft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [mergeInto, setMergeInto] = useState("");
  const replyDraft = useReplyDraft();
  const [votersOffset, setVotersOffset] = useState(0);

  const action = useAction(() => {
    detail.reload();
    comments.reload();
  });
  const { failure, setFailure, notice } = action;
  // A refusal's field errors go to the edit form's fields.
  const run = (work: () => Promise<unknown>, message = t("common.saved")) =>
    action.run(
      () =>
        work().catch((error: unknown) => {
          if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
          throw error;
        }),
      message,
    );

  const d = detail.data;
  if (d === undefined) {
    return (
      <section>
        <a href={listPath} onClick={(e) => (e.preventDefault(), navigate(listPath))}>
          ← {t("common.back")}
        </a>
        <ErrorBanner error={detail.error} onRetry={detail.reload} />
        {detail.loading ? <p>{t("common.loading")}</p> : null}
      </section>
    );
  }
  const current = form ?? { title: d.title, description: d.description };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const local = validateRequest(current.title, current.description);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    if (await run(() => api("PUT", `${base}/${d.id}`, { title: current.title.trim(), description: current.description }))) setForm(null);
  };
  const merge = async (event: FormEvent) => {
    event.preventDefault();
    const target = (others.data?.requests ?? []).find((r) => r.id === mergeInto);
    if (target === undefined) {
      setErrors({ intoId: [t("validation.required")] });
      return;
    }
    if (!window.confirm(t("detail.mergeConfirm", { from: d.title, into: target.title }))) return;
    if (await run(() => api("POST", `${base}/${d.id}/merge`, { intoId: target.id }))) navigate(`${listPath}/${target.id}`);
  };
  const remove = async () => {
    if (!window.confirm(t("common.confirmDelete", { name: d.title }))) return;
    setFailure(null);
    try {
      await api("DELETE", `${base}/${d.id}`);
      navigate(listPath);
    } catch (error) {
      setFailure(error);
    }
  };
  const mergeCandidates = (others.data?.requests ?? []).filter((r) => r.id !== d.id && r.mergedIntoId === null);

  return (
    <section aria-labelledby="detail-title">
      <a href={listPath} onClick={(e) => (e.preventDefault(), navigate(listPath))}>
        ← {t("common.back")}
      </a>
      <h1 id="detail-title">{d.title}</h1>
      <p className="hint">
        {t("requests.votes", { count: d.voteCount })} · {d.columnName ?? "—"} · {d.moderation}
        {d.requesterEmail === null ? "" : ` · ${d.requesterEmail}`}
      </p>
      {d.mergedIntoId === null ? null : (
        <div className="banner banner-info" role="status">
          {t("detail.mergedInto")}{" "}
          <a href={`${listPath}/${d.mergedIntoId}`} onClick={(e) => (e.preventDefault(), navigate(`${listPath}/${d.mergedIntoId}`))}>
            {t("detail.openTarget")}
          </a>
        </div>
      )}
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={failure} />

      <RequestEditForm draft={current} errors={errors} canDelete={props.canDelete} onChange={setForm} onSave={(e) => void save(e)} onRemove={() => void remove()} />

      <RequestOrganize wsId={props.wsId} appId={props.appId} request={d} onChanged={detail.reload} />

      {d.mergedIntoId === null ? <RequestMerge candidates={mergeCandidates} value={mergeInto} errors={errors} onChange={setMergeInto} onMerge={(e) => void merge(e)} /> : null}

      <RequestComments wsId={props.wsId} path={`${base}/${d.id}`} comments={comments} limit={limit} onLimit={setLimit} draft={replyDraft} run={run} />

      <h2>{t("issues.title")}</h2>
      <RequestIssues wsId={props.wsId} appId={props.appId} requestId={d.id} />

      <h2>{t("evidence.title")}</h2>
      <LinkedFeedbackList wsId={props.wsId} feedback={d.feedback} run={action.run} />

      <h2>{t("onBehalf.title")}</h2>
      <VoteOnBehalf wsId={props.wsId} appId={props.appId} requestId={d.id} onVoted={detail.reload} />

      <RequestCompanies wsId={props.wsId} appId={props.appId} companies={d.companies} companyRevenue={d.companyRevenue} companyCount={d.companyCount} />

      <RequestVoters wsId={props.wsId} appId={props.appId} voters={d.voters} offset={votersOffset} onOffset={setVotersOffset} />

      <h2>{t("detail.history")}</h2>
      <ul className="rows">
        {d.events.slice(0, 50).map((e) => (
          <li key={e.id} className="row">
            <small>
              {e.type} · {e.actor ?? "system"} · {new Date(e.createdAt).toLocaleString()}
            </small>
          </li>
        ))}
      </ul>
    </section>
  );
}
