import type { FormEvent } from "react";
import { api } from "../api.js";
import { Field } from "../components/ui.js";
import { t } from "../i18n/t.js";

/** What the connect form holds as typed. */
export interface LinearTeamDraft {
  teamId: string;
  apiKey: string;
  webhookSecret: string;
  apiUrl: string;
}

export const EMPTY_LINEAR_TEAM: LinearTeamDraft = { teamId: "", apiKey: "", webhookSecret: "", apiUrl: "" };

/** Connects the app to a Linear team with an API key and the signing secret of the team's webhook. */
export function LinearConnectForm(props: { path: string; form: LinearTeamDraft; onForm: (form: LinearTeamDraft) => void; run: (work: () => Promise<unknown>, message?: string) => Promise<boolean> }) {
  const { form, onForm: setForm } = props;
  const connect = async (event: FormEvent) => {
    event.preventDefault();
    const { apiUrl, ...rest } = form;
    const body = { teamId: rest.teamId.trim(), apiKey: rest.apiKey.trim(), webhookSecret: rest.webhookSecret.trim(), ...(apiUrl.trim() === "" ? {} : { apiUrl: apiUrl.trim() }) };
    if (await props.run(() => api("POST", props.path, body), t("integrations.connectedNotice"))) setForm(EMPTY_LINEAR_TEAM);
  };
  return (
    <form className="settings" onSubmit={(e) => void connect(e)} aria-label={t("integrations.linear.connect")}>
      <Field id="ln-team" label={t("integrations.linear.teamId")}>
        <input id="ln-team" required value={form.teamId} onChange={(e) => setForm({ ...form, teamId: e.target.value })} />
      </Field>
      <Field id="ln-key" label={t("integrations.linear.apiKey")}>
        <input id="ln-key" type="password" autoComplete="off" required value={form.apiKey} onChange={(e) => setForm({ ...form, apiKey: e.target.value })} />
      </Field>
      <Field id="ln-secret" label={t("integrations.linear.webhookSecret")}>
        <input id="ln-secret" type="password" autoComplete="off" required value={form.webhookSecret} onChange={(e) => setForm({ ...form, webhookSecret: e.target.value })} />
      </Field>
      <Field id="ln-api" label={t("integrations.linear.apiUrl")}>
        <input id="ln-api" type="url" value={form.apiUrl} onChange={(e) => setForm({ ...form, apiUrl: e.target.value })} />
      </Field>
      <button type="submit" className="primary">
        {t("integrations.linear.connect")}
      </button>
    </form>
  );
}
