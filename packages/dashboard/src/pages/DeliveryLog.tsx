import type { WebhookDelivery, WebhookEndpoint } from "@tidings/protocol";
import { api } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { t } from "../i18n/t.js";

/** The delivery log of one endpoint: every delivery with every attempt, and redelivery. */
export function DeliveryLog(props: { base: string; endpoint: WebhookEndpoint }) {
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
