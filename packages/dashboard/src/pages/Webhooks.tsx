import type { WebhookEndpoint } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { t } from "../i18n/t.js";
import { DeliveryLog } from "./DeliveryLog.js";
import { WebhookForm } from "./WebhookForm.js";

function SecretBanner(props: { secret: string }) {
  return (
    <div className="banner banner-info secret" role="status">
      <span>{t("webhooks.secretShown")}</span>
      <code data-testid="webhook-secret">{props.secret}</code>
      <button type="button" onClick={() => void navigator.clipboard?.writeText(props.secret)}>
        {t("common.copy")}
      </button>
    </div>
  );
}

/** An app's outbound webhooks: add (secret shown once), enable/disable, test, rotate, delete, and the delivery log. */
export function Webhooks(props: { wsId: string; appId: string; canConfigure: boolean }) {
  const base = `/workspaces/${props.wsId}/apps/${props.appId}/webhooks`;
  const list = useLoad(
    () => (props.canConfigure ? api<{ webhooks: WebhookEndpoint[] }>("GET", base) : Promise.resolve({ webhooks: [] as WebhookEndpoint[] })),
    [base, props.canConfigure],
  );
  const { failure, setFailure, notice, run } = useAction(list.reload);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  if (!props.canConfigure) {
    return (
      <section aria-labelledby="webhooks-title">
        <h1 id="webhooks-title">{t("webhooks.title")}</h1>
        <p className="hint">{t("webhooks.managersOnly")}</p>
      </section>
    );
  }

  const rotate = async (endpoint: WebhookEndpoint) => {
    if (!window.confirm(t("webhooks.rotateConfirm", { url: endpoint.url }))) return;
    await run(async () => setSecret((await api<{ secret: string }>("POST", `${base}/${endpoint.id}/secret`)).secret));
  };
  const remove = async (endpoint: WebhookEndpoint) => {
    if (!window.confirm(t("webhooks.deleteConfirm", { url: endpoint.url }))) return;
    if (open === endpoint.id) setOpen(null);
    await run(() => api("DELETE", `${base}/${endpoint.id}`), t("webhooks.deleted"));
  };
  const rows = list.data?.webhooks ?? [];
  const shown = rows.find((r) => r.id === open);

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">{t("webhooks.title")}</h1>
      <p className="hint">{t("webhooks.intro")}</p>
      <WebhookForm base={base} onFailure={setFailure} onCreated={(created) => (setSecret(created), list.reload())} />
      {secret === null ? null : <SecretBanner secret={secret} />}
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
      <ListStatus list={list} count={rows.length} empty={t("webhooks.empty")} />
      <ul className="rows">
        {rows.map((endpoint) => (
          <li key={endpoint.id} className="row" data-testid="webhook-row">
            <div className="row-main">
              <strong>{endpoint.url}</strong>
              <small>
                {t(`webhooks.format.${endpoint.format}`)} · {t("webhooks.eventCount", { count: endpoint.events.length })} ·{" "}
                {endpoint.enabled ? t("webhooks.enabled") : endpoint.disabledReason === "failing" ? t("webhooks.disabledFailing") : t("webhooks.disabled")}
              </small>
            </div>
            <button type="button" onClick={() => void run(() => api("PUT", `${base}/${endpoint.id}`, { enabled: !endpoint.enabled }))}>
              {endpoint.enabled ? t("webhooks.disable") : t("webhooks.enable")}
            </button>
            <button type="button" disabled={!endpoint.enabled} onClick={() => void run(() => api("POST", `${base}/${endpoint.id}/test`), t("webhooks.testSent"))}>
              {t("webhooks.test")}
            </button>
            <button type="button" onClick={() => setOpen(open === endpoint.id ? null : endpoint.id)} aria-expanded={open === endpoint.id}>
              {t("webhooks.showLog")}
            </button>
            <button type="button" onClick={() => void rotate(endpoint)}>
              {t("webhooks.rotate")}
            </button>
            <button type="button" className="danger" aria-label={`${t("webhooks.delete")} ${endpoint.url}`} onClick={() => void remove(endpoint)}>
              {t("webhooks.delete")}
            </button>
          </li>
        ))}
      </ul>
      {shown === undefined ? null : <DeliveryLog key={shown.id} base={base} endpoint={shown} />}
    </section>
  );
}
