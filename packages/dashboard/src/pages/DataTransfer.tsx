import type { AppRecord } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, upload } from "../api.js";
import { Empty, ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";

/** What the server answers once an archive is imported. */
interface ImportSummary {
  inserted: Record<string, number>;
  existing: Record<string, number>;
  files: number;
}

const consolePath = (path: string) => `/api/v1/console${path}`;

/** The total of a summary's per-table counts. */
export function rowTotal(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** Downloads of each app (archive, requests CSV) and of the workspace, and the upload of an archive. */
export function DataTransfer(props: { wsId: string; canConfigure: boolean }) {
  const apps = useLoad(() => api<{ apps: AppRecord[]; total: number }>("GET", `/workspaces/${props.wsId}/apps`), [props.wsId]);
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<{ sent: number; total: number } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  if (!props.canConfigure) return <Empty>{t("data.managersOnly")}</Empty>;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (file === null) return;
    setFailure(null);
    setSummary(null);
    setSent({ sent: 0, total: file.size });
    try {
      setSummary(await upload<ImportSummary>(`/workspaces/${props.wsId}/import`, file, "application/x-ndjson", (done, total) => setSent({ sent: done, total })));
      apps.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setSent(null);
    }
  };

  return (
    <section aria-labelledby="data-title">
      <h1 id="data-title">{t("data.title")}</h1>
      <div className="card settings">
        <h2>{t("data.export")}</h2>
        <p className="hint">{t("data.exportHint")}</p>
        <ErrorBanner error={apps.error} onRetry={apps.reload} />
        <ul data-testid="exports">
          {(apps.data?.apps ?? []).map((app) => (
            <li key={app.appId}>
              {app.name}:{" "}
              <a href={consolePath(`/workspaces/${props.wsId}/apps/${app.appId}/export`)} download>
                {t("data.archive")}
              </a>{" "}
              ·{" "}
              <a href={consolePath(`/workspaces/${props.wsId}/apps/${app.appId}/export?format=csv`)} download>
                {t("data.csv")}
              </a>
            </li>
          ))}
        </ul>
        <a href={consolePath(`/workspaces/${props.wsId}/export`)} download>
          {t("data.workspaceArchive")}
        </a>
      </div>
      <form className="card settings" onSubmit={(e) => void submit(e)}>
        <h2>{t("data.import")}</h2>
        <p className="hint">{t("data.importHint")}</p>
        <label htmlFor="archive-file">{t("data.file")}</label>
        <input id="archive-file" type="file" accept=".jsonl,application/x-ndjson" disabled={sent !== null} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <button type="submit" disabled={file === null || sent !== null}>
          {t("data.importButton")}
        </button>
        {sent === null ? null : (
          <p role="status">
            <progress aria-label={t("data.progressLabel")} max={Math.max(1, sent.total)} value={sent.sent} />{" "}
            {sent.sent < sent.total ? t("data.uploading", { percent: Math.floor((100 * sent.sent) / Math.max(1, sent.total)) }) : t("data.importing")}
          </p>
        )}
        <ErrorBanner error={failure} />
        {summary === null ? null : (
          <Notice>
            {t("data.imported", { count: rowTotal(summary.inserted), existing: rowTotal(summary.existing) })} {t("data.files", { count: summary.files })}
          </Notice>
        )}
      </form>
    </section>
  );
}
