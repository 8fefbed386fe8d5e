import { t } from "../i18n/t.js";

/** A connection's state as its status line says it: connected, or broken with the reason, and a rate-limit pause. */
export function IntegrationStatus(props: { status: "active" | "broken"; reason: string | null; brokenAt: string | null; pausedUntil: string | null; credentialHint: string }) {
  return (
    <p data-testid="integration-status" className={props.status === "broken" ? "banner banner-error" : "hint"} role={props.status === "broken" ? "alert" : undefined}>
      {props.status === "broken"
        ? t("integrations.broken", { reason: t(`integrations.reason.${props.reason ?? "unauthorized"}` as "integrations.reason.unauthorized"), date: new Date(props.brokenAt ?? Date.now()).toLocaleString() })
        : t("integrations.connected", { hint: props.credentialHint })}
      {props.pausedUntil === null ? "" : ` · ${t("integrations.paused", { date: new Date(props.pausedUntil).toLocaleString() })}`}
    </p>
  );
}
