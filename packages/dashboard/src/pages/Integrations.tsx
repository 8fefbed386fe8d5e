import type { BoardColumn } from "@tidings/protocol";
import { api } from "../api.js";
import { ErrorBanner, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { GithubIntegration } from "./GithubIntegration.js";
import { LinearIntegration } from "./LinearIntegration.js";

/** An app's issue trackers: its GitHub repository and its Linear team. */
export function Integrations(props: { wsId: string; appId: string; canConfigure: boolean }) {
  const columns = useLoad(() => api<{ columns: BoardColumn[] }>("GET", `/workspaces/${props.wsId}/apps/${props.appId}/columns`), [props.wsId, props.appId]);
  const list = columns.data?.columns ?? [];
  return (
    <section aria-labelledby="integrations-title">
      <h1 id="integrations-title">{t("integrations.title")}</h1>
      <p className="hint">{t("integrations.intro")}</p>
      <ErrorBanner error={columns.error} onRetry={columns.reload} />
      <section aria-labelledby="github-title">
        <h2 id="github-title">GitHub</h2>
        <GithubIntegration wsId={props.wsId} appId={props.appId} columns={list} canConfigure={props.canConfigure} />
      </section>
      <section aria-labelledby="linear-title">
        <h2 id="linear-title">Linear</h2>
        <LinearIntegration wsId={props.wsId} appId={props.appId} columns={list} canConfigure={props.canConfigure} />
      </section>
    </section>
  );
}
