import type { AppRecord } from "@tidings/protocol";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { api, ApiFailure } from "../api.js";
import { choices, Select } from "../components/Select.js";
import { describedBy, ErrorBanner, Field, Notice, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { formFromApp, patchFromForm, validateSettings, type FieldErrors, type SettingsForm } from "../settings-form.js";
import { knownSecret, rememberSecret } from "./secrets.js";

const PLATFORMS = ["ios", "macos", "android", "universal", "web"] as const;
const THEMES = ["system", "light", "dark", "midnight", "ocean", "forest", "sunset", "candy"] as const;
const PROVIDERS = ["none", "turnstile", "hcaptcha", "recaptcha", "altcha"] as const;
const FLAGS = ["allowPublic", "allowAnonymousRoadmap", "allowAnonymousVote", "allowAnonymousFeedback", "allowAnonymousChangelog", "portalIndexable", "requireIdentifiedUsers"] as const;
const FEATURES = ["feedback", "featureRequests", "roadmap", "changelog"] as const;

function Fieldset(props: { legend: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.children}
    </fieldset>
  );
}

function Check(props: { id: string; label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="check" htmlFor={props.id}>
      <input id={props.id} type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} /> {props.label}
    </label>
  );
}

/** Keys, snippet, signing secret, and every setting of one app. */
export function AppSettings(props: { wsId: string; appId: string; canConfigure: boolean }) {
  const { data: app, error, reload } = useLoad(() => api<AppRecord>("GET", `/workspaces/${props.wsId}/apps/${props.appId}`), [props.wsId, props.appId]);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [secret, setSecret] = useState<string | undefined>(knownSecret(props.appId));
  const [revealed, setRevealed] = useState(false);
  const [rotated, setRotated] = useState(false);
  useEffect(() => {
    if (app !== undefined) setForm(formFromApp(app));
  }, [app]);

  if (app === undefined || form === null) return error === null ? <p>{t("common.loading")}</p> : <ErrorBanner error={error} onRetry={reload} />;
  const update = (patch: Partial<SettingsForm>) => {
    setSaved(false);
    setForm({ ...form, ...patch });
  };
  const err = (field: string) => errors[field];
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
  const rotate = async () => {
    if (!window.confirm(t("apps.rotateConfirm"))) return;
    try {
      const answer = await api<{ signingSecret: string }>("POST", `/workspaces/${props.wsId}/apps/${props.appId}/signing-secret`);
      rememberSecret(props.appId, answer.signingSecret);
      setSecret(answer.signingSecret);
      setRevealed(true);
      setRotated(true);
    } catch (error) {
      setFailure(error);
    }
  };
  const origin = window.location.origin;
  const snippet = `import { FeedbackClient } from "@tidings/client";\n\nconst tidings = new FeedbackClient({\n  appKey: "${app.appKey}",\n  baseUrl: "${origin}",\n});`;
  // Fields stay editable for every role: the server decides (403 capability_required) and its answer is shown.
  const text = (id: string, field: "websiteUrl" | "iconUrl" | "appStoreUrl" | "googlePlayUrl", label: string) => (
    <Field id={id} label={label} errors={err(field)}>
      <input id={id} type="url" value={form[field]} onChange={(e) => update({ [field]: e.target.value })} {...describedBy(id, err(field))} />
    </Field>
  );
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">{t("settings.title", { app: app.name })}</h1>
      <div className="card keys">
        <p>
          {t("apps.key")}: <code data-testid="app-key">{app.appKey}</code>
        </p>
        <h2>{t("apps.snippet")}</h2>
        <pre className="snippet" data-testid="snippet">{snippet}</pre>
        <h2>{t("apps.secret")}</h2>
        {rotated ? <Notice>{t("apps.rotated")}</Notice> : null}
        {secret === undefined ? (
          <p>{t("apps.secretHidden")}</p>
        ) : (
          <p className="secret">
            <code data-testid="signing-secret">{revealed ? secret : "•".repeat(24)}</code>{" "}
            <button type="button" onClick={() => setRevealed(!revealed)} aria-pressed={revealed}>
              {revealed ? t("apps.hide") : t("apps.reveal")}
            </button>
          </p>
        )}
        {props.canConfigure ? (
          <button type="button" className="danger" onClick={() => void rotate()}>
            {t("apps.rotate")}
          </button>
        ) : null}
      </div>

      <form className="settings" onSubmit={(e) => void save(e)} noValidate aria-label={t("settings.title", { app: app.name })}>
        <Fieldset legend={t("settings.access")}>
          {FLAGS.map((flag) => (
            <Check key={flag} id={`flag-${flag}`} label={t(`settings.${flag}`)} checked={form[flag]} onChange={(checked) => update({ [flag]: checked })} />
          ))}
        </Fieldset>
        <Fieldset legend={t("settings.platforms")}>
          {PLATFORMS.map((platform) => (
            <Check
              key={platform}
              id={`platform-${platform}`}
              label={platform}
              checked={form.allowedPlatforms.includes(platform)}
              onChange={(checked) =>
                update({ allowedPlatforms: checked ? [...form.allowedPlatforms, platform] : form.allowedPlatforms.filter((p) => p !== platform) })
              }
            />
          ))}
        </Fieldset>
        <Field id="maxAttachmentMb" label={t("settings.maxAttachment")} errors={err("maxAttachmentBytes")}>
          <input id="maxAttachmentMb" inputMode="decimal" value={form.maxAttachmentMb} onChange={(e) => update({ maxAttachmentMb: e.target.value })} {...describedBy("maxAttachmentMb", err("maxAttachmentBytes"))} />
        </Field>
        <Fieldset legend={t("settings.sdkFeatures")}>
          {FEATURES.map((feature) => (
            <Check
              key={feature}
              id={`feature-${feature}`}
              label={t(`settings.feature.${feature}`)}
              checked={form.features[feature]}
              onChange={(checked) => update({ features: { ...form.features, [feature]: checked } })}
            />
          ))}
        </Fieldset>
        <Field id="theme" label={t("settings.theme")}>
          <Select id="theme" value={form.theme} choices={choices(THEMES)} onChange={(theme) => update({ theme })} />
        </Field>
        <Fieldset legend={t("settings.overlay")}>
          {(["title", "subtitle", "entryCount", "primaryButton", "closeButton"] as const).map((key) => (
            <Field key={key} id={`overlay-${key}`} label={t(`settings.overlay.${key}`)} errors={err(`sdk.changelogOverlay.${key}`)}>
              <input
                id={`overlay-${key}`}
                value={form.overlay[key]}
               
                onChange={(e) => update({ overlay: { ...form.overlay, [key]: e.target.value } })}
                {...describedBy(`overlay-${key}`, err(`sdk.changelogOverlay.${key}`))}
              />
            </Field>
          ))}
        </Fieldset>
        <Fieldset legend={t("settings.branding")}>
          {text("websiteUrl", "websiteUrl", t("settings.websiteUrl"))}
          {text("iconUrl", "iconUrl", t("settings.iconUrl"))}
          {text("appStoreUrl", "appStoreUrl", t("settings.appStoreUrl"))}
          {text("googlePlayUrl", "googlePlayUrl", t("settings.googlePlayUrl"))}
          <Check id="hideSiteBranding" label={t("settings.hideSiteBranding")} checked={form.hideSiteBranding} onChange={(checked) => update({ hideSiteBranding: checked })} />
        </Fieldset>
        <Field id="moderationPolicy" label={t("settings.moderation")}>
          <Select
            id="moderationPolicy"
            value={form.moderationPolicy}
            choices={choices(["none", "anonymous", "all"] as const, (policy) => t(`settings.moderation.${policy}`))}
            onChange={(moderationPolicy) => update({ moderationPolicy })}
          />
        </Field>
        <Fieldset legend={t("settings.verification")}>
          <Field id="provider" label={t("settings.provider")}>
            <Select id="provider" value={form.provider} choices={choices(PROVIDERS)} onChange={(provider) => update({ provider })} />
          </Field>
          <Field id="siteKey" label={t("settings.siteKey")} errors={err("verification.siteKey")}>
            <input id="siteKey" value={form.siteKey} onChange={(e) => update({ siteKey: e.target.value })} />
          </Field>
          <Field id="secretKey" label={t("settings.secretKey")} errors={err("verification.secretKey")} hint={app.verification.hasSecret ? t("settings.hasSecret") : undefined}>
            <input id="secretKey" type="password" autoComplete="off" value={form.secretKey} onChange={(e) => update({ secretKey: e.target.value })} />
          </Field>
          <Check id="exempt" label={t("settings.exempt")} checked={form.exempt} onChange={(checked) => update({ exempt: checked })} />
          <Check
            id="trustIdentifiedUsers"
            label={t("settings.trustIdentifiedUsers")}
            checked={form.trustIdentifiedUsers}
            onChange={(checked) => update({ trustIdentifiedUsers: checked })}
          />
        </Fieldset>
        <ErrorBanner error={failure} />
        {saved ? <Notice>{t("common.saved")}</Notice> : null}
        <button type="submit" className="primary">
          {t("common.save")}
        </button>
      </form>
    </section>
  );
}
