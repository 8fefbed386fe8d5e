import type { BoardColumn, GithubConnection } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import { ColumnSelect } from "../components/ColumnSelect.js";
import { optional } from "../components/optional.js";
import { ConfirmButton, ErrorBanner, Field, Notice, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { t } from "../i18n/t.js";
import { CredentialForm } from "./CredentialForm.js";
import { IntegrationStatus } from "./IntegrationStatus.js";

type LabelRow = { label: string; column: string };

/** The mapping as the PATCH body names it (columns by id; null keeps the default). */
export function githubMappingBody(closed: string, reopened: string, labels: readonly LabelRow[]) {
  return {
    closedColumn: closed === "" ? null : closed,
    reopenedColumn: reopened === "" ? null : reopened,
    labelColumns: labels.filter((row) => row.label.trim() !== "" && row.column !== "").map((row) => ({ label: row.label.trim(), column: row.column })),
  };
}

/** An app's GitHub connection: connect with a token, its status, the column mapping, a new token, disconnect. */
export function GithubIntegration(props: { wsId: string; appId: string; columns: readonly BoardColumn[]; canConfigure: boolean }) {
  const path = `/workspaces/${props.wsId}/apps/${props.appId}/github`;
  const connection = useLoad(() => optional(api<GithubConnection>("GET", path), ["github_not_connected"]), [path]);
  const { failure, notice, run } = useAction(connection.reload);
  const [form, setForm] = useState({ owner: "", repo: "", token: "", apiBaseUrl: "" });
  const [secret, setSecret] = useState<string | null>(null);
  const [mapping, setMapping] = useState<{ closed: string; reopened: string; labels: LabelRow[] } | null>(null);

  const c = connection.data;
  const connect = async (event: FormEvent) => {
    event.preventDefault();
    const body = { owner: form.owner.trim(), repo: form.repo.trim(), token: form.token.trim(), ...(form.apiBaseUrl.trim() === "" ? {} : { apiBaseUrl: form.apiBaseUrl.trim() }) };
    const ok = await run(async () => setSecret((await api<{ webhookSecret: string }>("POST", path, body)).webhookSecret), t("integrations.connectedNotice"));
    if (ok) setForm({ owner: "", repo: "", token: "", apiBaseUrl: "" });
  };

  if (c === undefined || c === null) {
    return (
      <>
        <ErrorBanner error={connection.error ?? failure} onRetry={connection.reload} />
        {notice === null ? null : <Notice>{notice}</Notice>}
        {c === null ? <p className="hint">{t("integrations.notConnected")}</p> : null}
        {c === null && props.canConfigure ? (
          <form className="settings" onSubmit={(e) => void connect(e)} aria-label={t("integrations.github.connect")}>
            <Field id="gh-owner" label={t("integrations.github.owner")}>
              <input id="gh-owner" required value={form.owner} onChange={(e) => setForm({ ...form, owner: e.target.value })} />
            </Field>
            <Field id="gh-repo" label={t("integrations.github.repo")}>
              <input id="gh-repo" required value={form.repo} onChange={(e) => setForm({ ...form, repo: e.target.value })} />
            </Field>
            <Field id="gh-token" label={t("integrations.github.token")} hint={t("integrations.github.tokenHint")}>
              <input id="gh-token" type="password" autoComplete="off" required value={form.token} onChange={(e) => setForm({ ...form, token: e.target.value })} />
            </Field>
            <Field id="gh-api" label={t("integrations.github.apiBaseUrl")} hint={t("integrations.github.apiBaseUrlHint")}>
              <input id="gh-api" type="url" value={form.apiBaseUrl} onChange={(e) => setForm({ ...form, apiBaseUrl: e.target.value })} />
            </Field>
            <button type="submit" className="primary">
              {t("integrations.github.connect")}
            </button>
          </form>
        ) : null}
      </>
    );
  }

  const current = mapping ?? { closed: c.mapping.closed?.id ?? "", reopened: c.mapping.reopened?.id ?? "", labels: c.mapping.labels.map((l) => ({ label: l.label, column: l.column.id })) };
  const setLabel = (index: number, row: LabelRow) => setMapping({ ...current, labels: current.labels.map((r, i) => (i === index ? row : r)) });

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
          <form
            className="settings"
            aria-label={t("integrations.mapping")}
            onSubmit={(e) => {
              e.preventDefault();
              void run(() => api("PATCH", path, githubMappingBody(current.closed, current.reopened, current.labels)), t("common.saved")).then((ok) => ok && setMapping(null));
            }}
          >
            <h3>{t("integrations.mapping")}</h3>
            <Field id="gh-closed" label={t("integrations.github.closed")}>
              <ColumnSelect id="gh-closed" columns={props.columns} value={current.closed} none={t("integrations.firstDone")} onChange={(closed) => setMapping({ ...current, closed })} />
            </Field>
            <Field id="gh-reopened" label={t("integrations.github.reopened")}>
              <ColumnSelect id="gh-reopened" columns={props.columns} value={current.reopened} none={t("integrations.stays")} onChange={(reopened) => setMapping({ ...current, reopened })} />
            </Field>
            {current.labels.map((row, index) => (
              <div className="inline-form" key={index}>
                <input aria-label={t("integrations.github.label")} value={row.label} maxLength={50} onChange={(e) => setLabel(index, { ...row, label: e.target.value })} />
                <ColumnSelect label={t("integrations.github.labelColumn", { label: row.label })} columns={props.columns} value={row.column} none="—" onChange={(column) => setLabel(index, { ...row, column })} />
                <button type="button" onClick={() => setMapping({ ...current, labels: current.labels.filter((_, i) => i !== index) })}>
                  {t("integrations.github.removeLabel")}
                </button>
              </div>
            ))}
            <div className="inline-form">
              <button type="button" onClick={() => setMapping({ ...current, labels: [...current.labels, { label: "", column: "" }] })}>
                {t("integrations.github.addLabel")}
              </button>
              <button type="submit">{t("integrations.saveMapping")}</button>
            </div>
          </form>
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
