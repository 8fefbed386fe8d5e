import { type AdminFeatureRequest, type Comment, type FeatureRequestEvent, type FeatureRequestVoter, type LinkedFeedback, type RequestCompany, textLength, truncateText } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { DataTable } from "../components/DataTable.js";
import { ListStatus } from "../components/ListStatus.js";
import { Select } from "../components/Select.js";
import { useAction } from "../components/useAction.js";
import { describedBy, Empty, ErrorBanner, Field, Notice, Pager, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { navigate } from "../router.js";
import type { FieldErrors } from "../settings-form.js";
import { CompanyLink } from "./CompanyLink.js";
import { formatMoney, formatRevenue } from "./EndUsers.js";
import { LinkedFeedbackList } from "./LinkedFeedback.js";
import { RequestIssues } from "./RequestIssues.js";
import { RequestOrganize } from "./RequestOrganize.js";
import { VoteOnBehalf } from "./VoteOnBehalf.js";

const VOTERS_PAGE = 20;

interface Detail extends AdminFeatureRequest {
  events: FeatureRequestEvent[];
  voters: FeatureRequestVoter[];
  companies: RequestCompany[];
  feedback: LinkedFeedback[];
}

/** Checks the edit form of a request before sending. */
export function validateRequest(title: string, description: string): FieldErrors {
  const errors: FieldErrors = {};
  if (title.trim() === "") errors.title = [t("validation.required")];
  else if (textLength(title.trim()) > 200) errors.title = [t("validation.tooLong", { max: 200 })];
  if (textLength(description) > 20_000) errors.description = [t("validation.tooLong", { max: 20_000 })];
  return errors;
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
  const [form, setForm] = useState<{ title: string; description: string } | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [mergeInto, setMergeInto] = useState("");
  const [reply, setReply] = useState("");
  const [replyTo, setReplyTo] = useState<Comment | null>(null);
  const [replyErrors, setReplyErrors] = useState<FieldErrors>({});
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
  const sendReply = async (event: FormEvent) => {
    event.preventDefault();
    const text = reply.trim();
    const local: FieldErrors = text === "" ? { body: [t("validation.required")] } : textLength(text) > 5000 ? { body: [t("validation.tooLong", { max: 5000 })] } : {};
    setReplyErrors(local);
    if (Object.keys(local).length > 0) return;
    const ok = await run(() => api("POST", `${base}/${d.id}/comments`, { body: text, ...(replyTo === null ? {} : { parentId: replyTo.id }) }));
    if (ok) {
      setReply("");
      setReplyTo(null);
    }
  };
  const mergeCandidates = (others.data?.requests ?? []).filter((r) => r.id !== d.id && r.mergedIntoId === null);
  const commentList = comments.data?.comments ?? [];

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

      <h2>{t("detail.edit")}</h2>
      <form className="settings" onSubmit={(e) => void save(e)} noValidate aria-label={t("detail.edit")}>
        <Field id="fr-title" label={t("detail.title")} errors={errors.title}>
          <input id="fr-title" value={current.title} onChange={(e) => setForm({ ...current, title: e.target.value })} {...describedBy("fr-title", errors.title)} />
        </Field>
        <Field id="fr-description" label={t("detail.description")} errors={errors.description}>
          <textarea id="fr-description" rows={5} value={current.description} onChange={(e) => setForm({ ...current, description: e.target.value })} {...describedBy("fr-description", errors.description)} />
        </Field>
        <div className="inline-form">
          <button type="submit" className="primary">
            {t("common.save")}
          </button>
          {props.canDelete ? (
            <button type="button" className="danger" onClick={() => void remove()}>
              {t("detail.delete")}
            </button>
          ) : null}
        </div>
      </form>

      <RequestOrganize wsId={props.wsId} appId={props.appId} request={d} onChanged={detail.reload} />

      {d.mergedIntoId === null ? (
        <>
          <h2>{t("detail.merge")}</h2>
          <form className="inline-form" onSubmit={(e) => void merge(e)} noValidate>
            <Field id="merge-into" label={t("detail.mergeTarget")} errors={errors.intoId}>
              <Select
                id="merge-into"
                value={mergeInto}
                choices={[{ value: "", label: "—" }, ...mergeCandidates.map((r) => ({ value: r.id, label: `${r.title} (${r.voteCount})` }))]}
                onChange={setMergeInto}
                {...describedBy("merge-into", errors.intoId)}
              />
            </Field>
            <button type="submit">{t("detail.mergeButton")}</button>
          </form>
        </>
      ) : null}

      <h2>{t("detail.comments")}</h2>
      <ErrorBanner error={comments.error} onRetry={comments.reload} />
      <ListStatus list={comments} count={commentList.length} empty={t("detail.noComments")} />
      <ul className="rows" aria-label={t("detail.comments")}>
        {commentList.map((c) => (
          <li key={c.id} className="row" data-testid="comment-row">
            <div className="row-main">
              <small>
                {c.authorName ?? "—"}
                {c.isTeam ? ` · ${t("detail.team")}` : ""}
                {c.isHidden ? ` · ${t("detail.hidden")}` : ""} · {new Date(c.createdAt).toLocaleString()}
              </small>
              <p className={c.isHidden ? "description muted" : "description"}>{c.body}</p>
            </div>
            <div className="row-actions">
              <button type="button" onClick={() => (setReplyTo(c), document.getElementById("reply-body")?.focus())}>
                {t("detail.reply")}
              </button>
              <button type="button" onClick={() => void run(() => api("PATCH", `/workspaces/${props.wsId}/comments/${c.id}/hide`, { isHidden: !c.isHidden }))}>
                {c.isHidden ? t("detail.unhide") : t("detail.hide")}
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => {
                  if (window.confirm(t("common.confirmDelete", { name: truncateText(c.body, 40) }))) void run(() => api("DELETE", `/workspaces/${props.wsId}/comments/${c.id}`));
                }}
              >
                {t("common.delete")}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {comments.data?.hasMore === true ? (
        <button type="button" onClick={() => setLimit(Math.min(200, limit + 50))} disabled={limit >= 200}>
          {t("common.loadMore")}
        </button>
      ) : null}
      <form className="settings" onSubmit={(e) => void sendReply(e)} noValidate>
        {replyTo === null ? null : (
          <p className="hint">
            {t("detail.replyTo", { name: replyTo.authorName ?? "—" })}{" "}
            <button type="button" className="link" onClick={() => setReplyTo(null)}>
              {t("common.cancel")}
            </button>
          </p>
        )}
        <Field id="reply-body" label={t("detail.teamReply")} errors={replyErrors.body}>
          <textarea id="reply-body" rows={3} value={reply} onChange={(e) => setReply(e.target.value)} {...describedBy("reply-body", replyErrors.body)} />
        </Field>
        <button type="submit">{t("detail.send")}</button>
      </form>

      <h2>{t("issues.title")}</h2>
      <RequestIssues wsId={props.wsId} appId={props.appId} requestId={d.id} />

      <h2>{t("evidence.title")}</h2>
      <LinkedFeedbackList wsId={props.wsId} feedback={d.feedback} run={action.run} />

      <h2>{t("onBehalf.title")}</h2>
      <VoteOnBehalf wsId={props.wsId} appId={props.appId} requestId={d.id} onVoted={detail.reload} />

      <h2>{t("detail.companies")}</h2>
      <p className="hint" data-testid="company-revenue">
        {t("detail.revenue")}: {formatRevenue(d.companyRevenue)} · {t("requests.companies", { count: d.companyCount })}
      </p>
      {d.companies.length === 0 ? (
        <Empty>{t("detail.noCompanies")}</Empty>
      ) : (
        <DataTable testId="request-companies" columns={[t("companies.company"), t("companies.mrr"), t("companies.plan"), t("detail.companyVoters")]}>
          {d.companies.map((c) => (
            <tr key={c.id}>
              <th scope="row">
                <CompanyLink wsId={props.wsId} appId={props.appId} company={c} />
              </th>
              <td>{formatMoney(c.mrr, c.currency)}</td>
              <td>{c.plan ?? "—"}</td>
              <td>{c.voters}</td>
            </tr>
          ))}
        </DataTable>
      )}

      <h2>{t("detail.voters")}</h2>
      {d.voters.length === 0 ? (
        <Empty>{t("detail.noVoters")}</Empty>
      ) : (
        <DataTable testId="voters" columns={[t("endUsers.user"), t("detail.company"), t("endUsers.paying"), t("endUsers.plan"), t("endUsers.mrr"), t("detail.votedAt")]}>
          {d.voters.slice(votersOffset, votersOffset + VOTERS_PAGE).map((v) => (
            <tr key={v.publicId}>
              <th scope="row">
                {v.displayName === null ? null : <>{v.displayName} </>}
                <code>{v.publicId}</code>
                {v.addedByTeam ? (
                  <small className="muted" data-testid="added-by-team">
                    {" "}
                    · {t("detail.addedByTeam")}
                    {v.note === null ? "" : `: ${v.note}`}
                  </small>
                ) : null}
              </th>
              <td>{v.company === null ? "—" : <CompanyLink wsId={props.wsId} appId={props.appId} company={v.company} />}</td>
              <td>{v.isPaying ? t("common.yes") : t("common.no")}</td>
              <td>{v.plan ?? "—"}</td>
              <td>{formatMoney(v.mrr, v.currency)}</td>
              <td>{new Date(v.votedAt).toLocaleString()}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager offset={votersOffset} limit={VOTERS_PAGE} total={d.voters.length} onChange={setVotersOffset} />

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
