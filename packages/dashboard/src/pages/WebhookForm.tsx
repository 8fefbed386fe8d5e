import { WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS, type WebhookEndpoint, type WebhookEventType, type WebhookFormat } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { choices } from "../components/Select.js";
import { describedBy, Field } from "../components/ui.js";
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

/** The form that adds a webhook: its URL, payload format and events; `onCreated` gets the new endpoint's secret. */
export function WebhookForm(props: { base: string; onFailure: (failure: unknown) => void; onCreated: (secret: string) => void }) {
  const [url, setUrl] = useState("");
  const [format, setFormat] = useState<WebhookFormat>("standard");
  const [events, setEvents] = useState<WebhookEventType[]>(["request.created", "request.status_changed", "comment.created"]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const add = async (event: FormEvent) => {
    event.preventDefault();
    const local = validateWebhook(url, events);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    props.onFailure(null);
    try {
      const created = await api<WebhookEndpoint & { secret: string }>("POST", props.base, { url: url.trim(), events, format });
      props.onCreated(created.secret);
      setUrl("");
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      props.onFailure(error);
    }
  };
  const toggleEvent = (type: WebhookEventType, on: boolean) => setEvents((current) => (on ? [...current, type] : current.filter((e) => e !== type)));
  return (
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
  );
}
