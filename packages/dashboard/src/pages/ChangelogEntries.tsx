import type { AdminChangelogEntry } from "@tidings/protocol";
import { t } from "../i18n/t.js";

/** The releases of an app: status, schedule, version, mail progress and linked requests; those not yet published can be edited. */
export function ChangelogEntries(props: { entries: readonly AdminChangelogEntry[]; onEdit: (entry: AdminChangelogEntry) => void }) {
  return (
    <ul className="rows">
      {props.entries.map((entry) => (
        <li key={entry.id} className="row">
          <div className="row-main">
            <strong>{entry.title}</strong>
            <small>
              {t(`changelog.status.${entry.status}`)}
              {entry.status === "scheduled" && entry.scheduledAt !== null ? ` ${t("changelog.scheduledFor", { when: new Date(entry.scheduledAt).toLocaleString() })}` : ""}
              {entry.versionLabel === null ? "" : ` · ${entry.versionLabel}`}
              {entry.status === "published" ? ` · ${t("changelog.delivery", { sent: entry.delivery.sent, total: entry.delivery.total, failed: entry.delivery.failed })}` : ""}
            </small>
            {entry.status === "published" && entry.delivery.total > 0 ? (
              <progress aria-label={t("changelog.progress", { title: entry.title })} max={entry.delivery.total} value={entry.delivery.sent + entry.delivery.failed} />
            ) : null}
            {entry.linkedRequests.length === 0 ? null : (
              <small>
                {t("changelog.links")}: {entry.linkedRequests.map((r) => r.title).join(", ")}
              </small>
            )}
            {entry.delivery.lastError === null ? null : <small className="field-error">{entry.delivery.lastError}</small>}
          </div>
          {entry.status === "published" ? null : (
            <button type="button" onClick={() => props.onEdit(entry)}>
              {t("changelog.edit")}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
