import { submissionLabel, type Submission } from "../feedback-inbox.js";
import { t } from "../i18n/t.js";

/** One submission's line in the inbox: its bulk checkbox, and what opens it (label, status, priority, app, platform, date). */
export function SubmissionRow(props: { submission: Submission; open: boolean; checked: boolean; onToggle: () => void; onOpen: () => void }) {
  const s = props.submission;
  return (
    <li className={props.open ? "row row-open" : "row"} data-testid="submission-row">
      <input type="checkbox" aria-label={s.title ?? s.submissionId} checked={props.checked} onChange={props.onToggle} />
      <button type="button" className="row-main link" onClick={props.onOpen} aria-expanded={props.open}>
        <strong>{submissionLabel(s)}</strong>
        <small>
          {t(`feedback.status.${s.triageStatus}` as "feedback.status.open")} · {s.priority ?? ""} {s.appName}
          {s.platform === null ? "" : ` · ${s.platform}`} · {new Date(s.createdAt).toLocaleString()}
        </small>
      </button>
    </li>
  );
}
