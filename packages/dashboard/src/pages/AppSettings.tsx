import type { AppRecord } from "@tidings/protocol";
import { useEffect, useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { ErrorBanner, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { formFromApp, patchFromForm, validateSettings, type FieldErrors, type SettingsForm } from "../settings-form.js";
import { AppKeys, useSigningSecret } from "./AppKeys.js";
import { AppSettingsForm } from "./AppSettingsForm.js";

/** Keys, snippet, signing secret, and every setting of one app. */
export function AppSettings(props: { wsId: string; appId: string; canConfigure: boolean }) {
  const { data: app, error, reload } = useLoad(() => api<AppRecord>("GET", `/workspaces/${props.wsId}/apps/${props.appId}`), [props.wsId, props.appId]);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const signing = useSigningSecret(props.wsId, props.appId, setFailure);
  useEffect(() => {
    if (app !== undefined) setForm(formFromApp(app));
  }, [app]);

  if (app === undefined || form === null) return error === null ? <p>{t("common.loading")}</p> : <ErrorBanner error={error} onRetry={reload} />;
  const update = (patch: Partial<SettingsForm>) => {
    setSaved(false);
    setForm({ ...form, ...patch });
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setFailure(null);
    const local = validateSettings(form);
    setErrors(local);
    if (Object.keys(local).length > 0) {
      setFailure(new Error(t("common.fixErrors")));
      return;
    }
    try {
      await api("PUT", `/workspaces/${props.wsId}/apps/${props.appId}/settings`, patchFromForm(form));
      setSaved(true);
      reload();
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      setFailure(error);
    }
  };
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">{t("settings.title", { app: app.name })}</h1>
      <AppKeys app={app} signing={signing} canConfigure={props.canConfigure} />

      <AppSettingsForm app={app} form={form} errors={errors} failure={failure} saved={saved} onChange={update} onSave={(e) => void save(e)} />
    </section>
  );
}
