import { WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType, type WebhookFormat } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { ListStatus } from "../components/ListStatus.js";
import { choices } from "../components/Select.js";
import { describedBy, ErrorBanner, Field, Notice, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

/** Checks the add form before sending: an http(s) URL and at least one event. */
export function validateWebhook(url: string, events: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  let parsed: URL | undefined;
  try {
    parsed = new URL(url.trim());
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) errors.url = [t("validation.url")];
  if (events.length === 0) errors.events = [t("webhooks.eventsRequired")];
  return errors;
}

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

/** The delivery log of one endpoint: every delivery with every attempt, and redelivery. */
function DeliveryLog(props: { base: string; endpoint: WebhookEndpoint }) {
  const path = `${props.base}/${props.endpoint.id}`;
  const list = useLoad(() => api<{ deliveries: WebhookDelivery[] }>("GET", `${path}/deliveries?limit=50`), [path]);
  const { failure, notice, run } = useAction(list.reload);
  const rows = list.data?.deliveries ?? [];
  return (
    <section aria-labelledby={`log-${props.endpoint.id}`} className="delivery-log">
      <h2 id={`log-${props.endpoint.id}`}>{t("webhooks.log", { url: props.endpoint.url })}</h2>
      <button type="button" onClick={list.reload}>
        {t("webhooks.refresh")}
      </button>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
      <ListStatus list={list} count={rows.length} empty={t("webhooks.noDeliveries")} showLoading />
      <ul className="rows">
        {rows.map((d) => (
          <li key={d.id} className="row" data-testid="delivery-row">
            <div className="row-main">
              <strong>
                {d.eventType} · {t(`webhooks.status.${d.status}`)}
              </strong>
              <small>
                {new Date(d.createdAt).toLocaleString()} · {t("webhooks.attempts", { count: d.attemptCount })}
                {d.nextAttemptAt === null ? "" : ` · ${t("webhooks.nextAttempt", { at: new Date(d.nextAttemptAt).toLocaleString() })}`}
              </small>
              <ol className="attempts">
                {d.attempts.map((a) => (
                  <li key={a.attempt} data-testid="delivery-attempt">
                    {new Date(a.at).toLocaleTimeString()} · {t(`webhooks.outcome.${a.outcome}`)}
                    {a.statusCode === null ? "" : ` ${a.statusCode}`} · {a.latencyMs} ms{a.excerpt === "" ? null : <code>{a.excerpt.slice(0, 200)}</code>}
                  </li>
                ))}
              </ol>
            </div>
            <button type="button" disabled={d.status === "pending"} onClick={() => void run(() => api("POST", `${path}/deliveries/${d.id}/redeliver`), t("webhooks.redelivered"))}>
              {t("webhooks.redeliver")}
            </button>
          </li>
        ))}
      </ul>
    </section>
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
  const [url, setUrl] = useState("");
  const [format, setFormat] = useState<WebhookFormat>("standard");
  const [events, setEvents] = useState<WebhookEventType[]>(["request.created", "request.status_changed", "comment.created"]);
  const [errors, setErrors] = useState<FieldErrors>({});
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

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const local = validateWebhook(url, events);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setFailure(null);
    try {
      const created = await api<WebhookEndpoint & { secret: string }>("POST", base, { url: url.trim(), events, format });
      setSecret(created.secret);
      setUrl("");
      list.reload();
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      setFailure(error);
    }
  };
  const toggleEvent = (type: WebhookEventType, on: boolean) => setEvents((current) => (on ? [...current, type] : current.filter((e) => e !== type)));
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
      <form onSubmit={(e) => void add(e)} noValidate>
        <Field id="webhook-url" label={t("webhooks.url")} errors={errors.url}>
          <input id="webhook-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} {...describedBy("webhook-url", errors.url)} />
        </Field>
        <LabelledSelect label={t("webhooks.format")} value={format} choices={choices(WEBHOOK_FORMATS, (f) => t(`webhooks.format.${f}`))} onChange={(v) => setFormat(v as WebhookFormat)} />
        <fieldset aria-describedby={errors.events === undefined ? undefined : "webhook-events-error"}>
          <legend>{t("webhooks.events")}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="check">
              <input type="checkbox" checked={events.includes(type)} onChange={(e) => toggleEvent(type, e.target.checked)} /> <code>{type}</code>
            </label>
          ))}
          {errors.events === undefined ? null : (
            <p id="webhook-events-error" className="field-error">
              {errors.events.join(" ")}
            </p>
          )}
        </fieldset>
        <button type="submit" className="primary">
          {t("webhooks.add")}
        </button>
      </form>
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
