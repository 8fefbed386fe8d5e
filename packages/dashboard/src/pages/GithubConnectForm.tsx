import type { FormEvent } from "react";
import { api } from "../api.js";
import { Field } from "../components/ui.js";
import { t } from "../i18n/t.js";

/** What the connect form holds as typed. */
export interface GithubRepoDraft {
  owner: string;
  repo: string;
  token: string;
  apiBaseUrl: string;
}

export const EMPTY_GITHUB_REPO: GithubRepoDraft = { owner: "", repo: "", token: "", apiBaseUrl: "" };

/**
 * Connects the app to a GitHub repository with a token (and an API base URL for GitHub
 * Enterprise); the webhook secret the server answers goes to `onSecret`, shown once.
 */
export function GithubConnectForm(props: {
  path: string;
  form: GithubRepoDraft;
  onForm: (form: GithubRepoDraft) => void;
  onSecret: (secret: string) => void;
  run: (work: () => Promise<unknown>, message?: string) => Promise<boolean>;
}) {
  const { form, onForm: setForm } = props;
  const connect = async (event: FormEvent) => {
    event.preventDefault();
    const body = { owner: form.owner.trim(), repo: form.repo.trim(), token: form.token.trim(), ...(form.apiBaseUrl.trim() === "" ? {} : { apiBaseUrl: form.apiBaseUrl.trim() }) };
    const ok = await props.run(async () => props.onSecret((await api<{ webhookSecret: string }>("POST", props.path, body)).webhookSecret), t("integrations.connectedNotice"));
    if (ok) setForm(EMPTY_GITHUB_REPO);
  };
  return (
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
  );
}
