import { api } from "../api.js";
import { JsonValue } from "../components/JsonValue.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { choices, type Choice } from "../components/Select.js";
import { PRIORITIES, STATUSES, type Submission } from "../feedback-inbox.js";
import { t } from "../i18n/t.js";
import { FeedbackRequestLink } from "./FeedbackRequestLink.js";

/** A submission as the inbox opens it. */
export interface Detail {
  submission: Submission;
  /** Values are whatever JSON the reporting app sent (objects, arrays, numbers, null…). */
  metadata: { key: string; value: unknown; redacted: boolean; truncated: boolean }[];
  attachments: { attachmentId: string; kind: string; filename: string; mimeType: string; sizeBytes: number; url: string }[];
}

/** One submission in the inbox: who sent it, its triage (status, priority, assignee, note), attachments and metadata. */
export function SubmissionDetail(props: {
  wsId: string;
  open: Detail;
  memberChoices: readonly Choice[];
  /** The note as edited, or null for the stored one. */
  note: string | null;
  onNote: (note: string) => void;
  act: (work: () => Promise<unknown>, message?: string) => Promise<boolean>;
}) {
  const { open, note, act, memberChoices } = props;
  const base = `/workspaces/${props.wsId}/submissions`;
  return (
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
        <textarea id="note" value={note ?? open.submission.internalNote ?? ""} onChange={(e) => props.onNote(e.target.value)} />
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
  );
}
