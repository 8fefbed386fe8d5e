import type { AppRecord } from "@tidings/protocol";
import type { FormEvent, ReactNode } from "react";
import { choices, Select } from "../components/Select.js";
import { describedBy, ErrorBanner, Field, Notice } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors, SettingsForm } from "../settings-form.js";

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

/** Every setting of one app: access, platforms, attachments, SDK features, theme, overlay, branding, moderation, verification. */
export function AppSettingsForm(props: {
  app: AppRecord;
  form: SettingsForm;
  errors: FieldErrors;
  failure: unknown;
  saved: boolean;
  onChange: (patch: Partial<SettingsForm>) => void;
  onSave: (event: FormEvent) => void;
}) {
  const { app, form, onChange: update } = props;
  const err = (field: string) => props.errors[field];
  // Fields stay editable for every role: the server decides (403 capability_required) and its answer is shown.
  const text = (id: string, field: "websiteUrl" | "iconUrl" | "appStoreUrl" | "googlePlayUrl", label: string) => (
    <Field id={id} label={label} errors={err(field)}>
      <input id={id} type="url" value={form[field]} onChange={(e) => update({ [field]: e.target.value })} {...describedBy(id, err(field))} />
    </Field>
  );
  return (
    <form className="settings" onSubmit={props.onSave} noValidate aria-label={t("settings.title", { app: app.name })}>
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
      <ErrorBanner error={props.failure} />
      {props.saved ? <Notice>{t("common.saved")}</Notice> : null}
      <button type="submit" className="primary">
        {t("common.save")}
      </button>
    </form>
  );
}
