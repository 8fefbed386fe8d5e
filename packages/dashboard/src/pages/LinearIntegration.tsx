import type { BoardColumn, LinearConnection } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { optional } from "../components/optional.js";
import { ConfirmButton, ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { t } from "../i18n/t.js";
import { CredentialForm } from "./CredentialForm.js";
import { IntegrationStatus } from "./IntegrationStatus.js";
import { EMPTY_LINEAR_TEAM, LinearConnectForm } from "./LinearConnectForm.js";
import { LinearMappingForm, type StateMapping } from "./LinearMappingForm.js";

/** An app's Linear connection: connect with an API key and the webhook's signing secret, its status, the state mapping, a new key, disconnect. */
export function LinearIntegration(props: { wsId: string; appId: string; columns: readonly BoardColumn[]; canConfigure: boolean }) {
  const path = `/workspaces/${props.wsId}/apps/${props.appId}/linear`;
  const connection = useLoad(() => optional(api<LinearConnection>("GET", path), ["linear_not_connected"]), [path]);
  const { failure, notice, run } = useAction(connection.reload);
  // The forms' drafts live here, not in the forms, so a failed reload keeps what was typed.
  const [form, setForm] = useState(EMPTY_LINEAR_TEAM);
  const [mapping, setMapping] = useState<StateMapping | null>(null);

  const c = connection.data;
  if (c === undefined || c === null) {
    return (
      <>
        <ErrorBanner error={connection.error ?? failure} onRetry={connection.reload} />
        {notice === null ? null : <Notice>{notice}</Notice>}
        {c === null ? <p className="hint">{t("integrations.notConnected")}</p> : null}
        {c === null && props.canConfigure ? <LinearConnectForm path={path} form={form} onForm={setForm} run={run} /> : null}
      </>
    );
  }

  return (
    <>
      <p>
        {t("integrations.linear.team")} <code>{c.teamId}</code>
      </p>
      <IntegrationStatus status={c.status} reason={c.brokenReason} brokenAt={c.brokenAt} pausedUntil={c.pausedUntil} credentialHint={c.keyHint} />
      <p className="hint">
        {t("integrations.webhookUrl")} <code>{c.webhookUrl}</code>
      </p>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={failure} />
      {props.canConfigure ? (
        <>
          <LinearMappingForm path={path} connection={c} columns={props.columns} mapping={mapping} onMapping={setMapping} run={run} />
          <CredentialForm id="ln-new-key" label={t("integrations.linear.newKey")} field="apiKey" path={path} run={run} />
          <ConfirmButton question={t("integrations.disconnectConfirm", { name: "Linear" })} onConfirm={() => void run(() => api("DELETE", path), t("integrations.disconnected"))}>
            {t("integrations.disconnect")}
          </ConfirmButton>
        </>
      ) : null}
    </>
  );
}
