import { type AppRecord, textLength } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { describedBy, Empty, ErrorBanner, Field, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { navigate } from "../router.js";
import type { FieldErrors } from "../settings-form.js";
import { rememberSecret } from "./secrets.js";

/** The apps of a workspace and the form that creates one. */
export function Apps(props: { wsId: string; canConfigure: boolean }) {
  const { data, error, loading, reload } = useLoad(() => api<{ apps: AppRecord[]; total: number }>("GET", `/workspaces/${props.wsId}/apps`), [props.wsId]);
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const create = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const trimmed = name.trim();
    if (textLength(trimmed) < 2 || textLength(trimmed) > 120) {
      setErrors({ name: [t("validation.name")] });
      return;
    }
    setErrors({});
    try {
      const created = await api<AppRecord & { signingSecret: string }>("POST", `/workspaces/${props.wsId}/apps`, { name: trimmed });
      rememberSecret(created.appId, created.signingSecret);
      navigate(`/admin/w/${props.wsId}/a/${created.appId}/settings`);
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      setFailure(error);
    }
  };
  return (
    <section aria-labelledby="apps-title">
      <h1 id="apps-title">{t("apps.title")}</h1>
      <ErrorBanner error={error} onRetry={reload} />
      {loading && data === undefined ? <p>{t("common.loading")}</p> : null}
      {data !== undefined && data.apps.length === 0 ? <Empty>{t("apps.empty")}</Empty> : null}
      {data === undefined || data.apps.length === 0 ? null : (
        <ul className="cards">
          {data.apps.map((app) => (
            <li key={app.appId} className="card">
              <h2>{app.name}</h2>
              <p>
                {t("apps.key")}: <code>{app.appKey}</code>
              </p>
              <a href={`/admin/w/${props.wsId}/a/${app.appId}/settings`} onClick={(e) => { e.preventDefault(); navigate(`/admin/w/${props.wsId}/a/${app.appId}/settings`); }}>
                {t("apps.open")} — {app.name}
              </a>
            </li>
          ))}
        </ul>
      )}
      {props.canConfigure ? (
        <form className="inline-form" onSubmit={(e) => void create(e)} noValidate aria-label={t("apps.create")}>
          <ErrorBanner error={failure} />
          <Field id="new-app-name" label={t("apps.name")} errors={errors.name}>
            <input id="new-app-name" value={name} onChange={(e) => setName(e.target.value)} {...describedBy("new-app-name", errors.name)} />
          </Field>
          <button type="submit" className="primary">
            {t("apps.create")}
          </button>
        </form>
      ) : null}
    </section>
  );
}
