import type { BoardColumn, GithubConnection } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { optional } from "../components/optional.js";
import { ConfirmButton, ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { t } from "../i18n/t.js";
import { CredentialForm } from "./CredentialForm.js";
import { EMPTY_GITHUB_REPO, GithubConnectForm } from "./GithubConnectForm.js";
import { GithubMappingForm, type GithubMapping } from "./GithubMappingForm.js";
import { IntegrationStatus } from "./IntegrationStatus.js";

/** An app's GitHub connection: connect with a token, its status, the column mapping, a new token, disconnect. */
export function GithubIntegration(props: { wsId: string; appId: string; columns: readonly BoardColumn[]; canConfigure: boolean }) {
  const path = `/workspaces/${props.wsId}/apps/${props.appId}/github`;
  const connection = useLoad(() => optional(api<GithubConnection>("GET", path), ["github_not_connected"]), [path]);
  const { failure, notice, run } = useAction(connection.reload);
  // The forms' drafts live here, not in the forms, so a failed reload keeps what was typed.
  const [form, setForm] = useState(EMPTY_GITHUB_REPO);
  const [secret, setSecret] = useState<string | null>(null);
  const [mapping, setMapping] = useState<GithubMapping | null>(null);

  const c = connection.data;
  if (c === undefined || c === null) {
    return (
      <>
        <ErrorBanner error={connection.error ?? failure} onRetry={connection.reload} />
        {notice === null ? null : <Notice>{notice}</Notice>}
        {c === null ? <p className="hint">{t("integrations.notConnected")}</p> : null}
        {c === null && props.canConfigure ? <GithubConnectForm path={path} form={form} onForm={setForm} onSecret={setSecret} run={run} /> : null}
      </>
    );
  }

  return (
    <>
      <p>
        {t("integrations.github.repository")} <strong>{`${c.owner}/${c.repo}`}</strong>
      </p>
      <IntegrationStatus status={c.status} reason={c.brokenReason} brokenAt={c.brokenAt} pausedUntil={c.pausedUntil} credentialHint={c.tokenHint} />
      <p className="hint">
        {t("integrations.webhookUrl")} <code>{c.webhookUrl}</code>
      </p>
      {secret === null ? null : (
        <Notice>
          {t("integrations.github.secretOnce")} <code data-testid="webhook-secret">{secret}</code>
        </Notice>
      )}
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={failure} />
      {props.canConfigure ? (
        <>
          <GithubMappingForm path={path} connection={c} columns={props.columns} mapping={mapping} onMapping={setMapping} run={run} />
          <CredentialForm id="gh-new-token" label={t("integrations.github.newToken")} field="token" path={path} run={run} />
          <div className="inline-form">
            <button type="button" onClick={() => void run(async () => setSecret((await api<{ webhookSecret: string }>("POST", `${path}/webhook-secret`)).webhookSecret), t("integrations.github.rotated"))}>
              {t("integrations.github.rotate")}
            </button>
            <ConfirmButton question={t("integrations.disconnectConfirm", { name: "GitHub" })} onConfirm={() => void run(() => api("DELETE", path), t("integrations.disconnected")).then(() => setSecret(null))}>
              {t("integrations.disconnect")}
            </ConfirmButton>
          </div>
        </>
      ) : null}
    </>
  );
}
