import type { BoardColumn, LinearConnection } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import { ColumnSelect } from "../components/ColumnSelect.js";
import { optional } from "../components/optional.js";
import { ConfirmButton, ErrorBanner, Field, Notice, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { t } from "../i18n/t.js";
import { CredentialForm } from "./CredentialForm.js";
import { IntegrationStatus } from "./IntegrationStatus.js";

const STATES = ["completed", "started", "canceled"] as const;
type StateMapping = Record<(typeof STATES)[number], string>;

/** An app's Linear connection: connect with an API key and the webhook's signing secret, its status, the state mapping, a new key, disconnect. */
export function LinearIntegration(props: { wsId: string; appId: string; columns: readonly BoardColumn[]; canConfigure: boolean }) {
  const path = `/workspaces/${props.wsId}/apps/${props.appId}/linear`;
  const connection = useLoad(() => optional(api<LinearConnection>("GET", path), ["linear_not_connected"]), [path]);
  const { failure, notice, run } = useAction(connection.reload);
  const [form, setForm] = useState({ teamId: "", apiKey: "", webhookSecret: "", apiUrl: "" });
  const [mapping, setMapping] = useState<StateMapping | null>(null);

  const c = connection.data;
  const connect = async (event: FormEvent) => {
    event.preventDefault();
    const { apiUrl, ...rest } = form;
    const body = { teamId: rest.teamId.trim(), apiKey: rest.apiKey.trim(), webhookSecret: rest.webhookSecret.trim(), ...(apiUrl.trim() === "" ? {} : { apiUrl: apiUrl.trim() }) };
    if (await run(() => api("POST", path, body), t("integrations.connectedNotice"))) setForm({ teamId: "", apiKey: "", webhookSecret: "", apiUrl: "" });
  };

  if (c === undefined || c === null) {
    return (
      <>
        <ErrorBanner error={connection.error ?? failure} onRetry={connection.reload} />
        {notice === null ? null : <Notice>{notice}</Notice>}
        {c === null ? <p className="hint">{t("integrations.notConnected")}</p> : null}
        {c === null && props.canConfigure ? (
          <form className="settings" onSubmit={(e) => void connect(e)} aria-label={t("integrations.linear.connect")}>
            <Field id="ln-team" label={t("integrations.linear.teamId")}>
              <input id="ln-team" required value={form.teamId} onChange={(e) => setForm({ ...form, teamId: e.target.value })} />
            </Field>
            <Field id="ln-key" label={t("integrations.linear.apiKey")}>
              <input id="ln-key" type="password" autoComplete="off" required value={form.apiKey} onChange={(e) => setForm({ ...form, apiKey: e.target.value })} />
            </Field>
            <Field id="ln-secret" label={t("integrations.linear.webhookSecret")}>
              <input id="ln-secret" type="password" autoComplete="off" required value={form.webhookSecret} onChange={(e) => setForm({ ...form, webhookSecret: e.target.value })} />
            </Field>
            <Field id="ln-api" label={t("integrations.linear.apiUrl")}>
              <input id="ln-api" type="url" value={form.apiUrl} onChange={(e) => setForm({ ...form, apiUrl: e.target.value })} />
            </Field>
            <button type="submit" className="primary">
              {t("integrations.linear.connect")}
            </button>
          </form>
        ) : null}
      </>
    );
  }

  const current: StateMapping = mapping ?? { completed: c.mapping.completed?.id ?? "", started: c.mapping.started?.id ?? "", canceled: c.mapping.canceled?.id ?? "" };

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
          <form
            className="settings"
            aria-label={t("integrations.linear.mapping")}
            onSubmit={(e) => {
              e.preventDefault();
              const body = Object.fromEntries(STATES.map((s) => [`${s}Column`, current[s] === "" ? null : current[s]]));
              void run(() => api("PATCH", path, body), t("common.saved")).then((ok) => ok && setMapping(null));
            }}
          >
            <h3>{t("integrations.mapping")}</h3>
            {STATES.map((s) => (
              <Field key={s} id={`ln-${s}`} label={t(`integrations.linear.${s}`)}>
                <ColumnSelect id={`ln-${s}`} columns={props.columns} value={current[s]} none={t(s === "canceled" ? "integrations.stays" : "integrations.default")} onChange={(column) => setMapping({ ...current, [s]: column })} />
              </Field>
            ))}
            <button type="submit">{t("integrations.saveMapping")}</button>
          </form>
          <CredentialForm id="ln-new-key" label={t("integrations.linear.newKey")} field="apiKey" path={path} run={run} />
          <ConfirmButton question={t("integrations.disconnectConfirm", { name: "Linear" })} onConfirm={() => void run(() => api("DELETE", path), t("integrations.disconnected"))}>
            {t("integrations.disconnect")}
          </ConfirmButton>
        </>
      ) : null}
    </>
  );
}
