import type { WorkspaceUsage } from "@tidings/protocol";
import { api } from "../api.js";
import { ErrorBanner, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";

/** The workspace's plan and this month's intake against its quota. */
export function Usage(props: { wsId: string }) {
  const usage = useLoad(() => api<WorkspaceUsage>("GET", `/workspaces/${props.wsId}/usage`), [props.wsId]);
  const u = usage.data;
  return (
    <section aria-labelledby="usage-title">
      <h1 id="usage-title">{t("usage.title")}</h1>
      <ErrorBanner error={usage.error} onRetry={usage.reload} />
      {u === undefined ? (
        usage.loading ? <p>{t("common.loading")}</p> : null
      ) : (
        <div className="card settings" data-testid="usage">
          <dl className="metadata">
            <div>
              <dt>{t("usage.plan")}</dt>
              <dd>{u.plan}</dd>
            </div>
            <div>
              <dt>{t("usage.status")}</dt>
              <dd>{u.subscriptionStatus}</dd>
            </div>
            <div>
              <dt>{t("usage.month", { month: u.month })}</dt>
              <dd>{u.quota === null ? t("usage.unlimited", { used: u.submissions }) : t("usage.ofQuota", { used: u.submissions, quota: u.quota })}</dd>
            </div>
          </dl>
          {u.quota === null ? null : <progress aria-label={t("usage.quotaLabel")} max={Math.max(1, u.quota)} value={Math.min(u.submissions, u.quota)} />}
          <p className="hint">{t("usage.hint")}</p>
        </div>
      )}
    </section>
  );
}
