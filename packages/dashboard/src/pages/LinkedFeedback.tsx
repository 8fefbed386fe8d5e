import type { LinkedFeedback } from "@tidings/protocol";
import { api } from "../api.js";
import { Empty } from "../components/ui.js";
import { t } from "../i18n/t.js";

/** The feedback linked to a request as evidence: each one's quote and reporter, and Unlink. */
export function LinkedFeedbackList(props: { wsId: string; feedback: readonly LinkedFeedback[]; run: (work: () => Promise<unknown>, message?: string) => Promise<boolean> }) {
  if (props.feedback.length === 0) return <Empty>{t("evidence.none")}</Empty>;
  return (
    <ul className="rows" aria-label={t("evidence.title")}>
      {props.feedback.map((f) => (
        <li key={f.submissionId} className="row" data-testid="linked-feedback">
          <div className="row-main">
            <strong>{f.title}</strong>
            <blockquote className="description">{f.quote}</blockquote>
            <small>
              {[f.reporterName, f.reporterEmail].filter(Boolean).join(" ") || t("evidence.anonymous")} · {t("evidence.linkedAt", { date: new Date(f.linkedAt).toLocaleString() })}
            </small>
          </div>
          <div className="row-actions">
            <button
              type="button"
              onClick={() => void props.run(() => api("DELETE", `/workspaces/${props.wsId}/submissions/${f.submissionId}/feature-request`), t("evidence.unlinked"))}
              aria-label={t("evidence.unlinkNamed", { title: f.title })}
            >
              {t("evidence.unlink")}
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
