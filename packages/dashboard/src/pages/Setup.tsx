import type { SessionState } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { describedBy, ErrorBanner, Field } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { checkCredentials, type Done } from "./credentials.js";
import { useAuthSubmit } from "./useAuthSubmit.js";

/** The code of the start-up link (`/admin/?setup=<code>`), taken out of the address bar so history and bookmarks never keep it. */
function takeSetupCodeFromUrl(): string {
  const url = new URL(window.location.href);
  const code = url.searchParams.get("setup") ?? "";
  if (code !== "") {
    url.searchParams.delete("setup");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }
  return code;
}

export function Setup(props: { onDone: Done }) {
  const [values, setValues] = useState(() => ({ setupCode: takeSetupCodeFromUrl(), email: "", password: "", name: "", workspaceName: "" }));
  const { errors, failure, busy, submit } = useAuthSubmit(props.onDone);
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => setValues({ ...values, [key]: e.target.value });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      setupCode: values.setupCode.trim(),
      email: values.email.trim(),
      password: values.password,
      name: values.name.trim(),
      ...(values.workspaceName.trim() === "" ? {} : { workspaceName: values.workspaceName.trim() }),
    };
    const local = checkCredentials(values, true);
    if (body.setupCode === "") local.setupCode = [t("validation.required")];
    void submit(local, () => api<SessionState>("POST", "/auth/setup", body));
  };
  // A wrong code is said at the code's field rather than in the banner.
  const wrongCode = failure instanceof ApiFailure && failure.code === "invalid_setup_code";
  const codeErrors = errors.setupCode ?? (wrongCode ? [t("auth.setupCodeWrong")] : undefined);
  return (
    <main className="auth">
      <form onSubmit={onSubmit} noValidate aria-labelledby="setup-title">
        <h1 id="setup-title">{t("auth.setupTitle")}</h1>
        <p>{t("auth.setupIntro")}</p>
        <ErrorBanner error={wrongCode ? null : failure} />
        <Field id="setupCode" label={t("auth.setupCode")} errors={codeErrors} hint={t("auth.setupCodeHint")}>
          <input
            id="setupCode"
            autoComplete="off"
            spellCheck={false}
            value={values.setupCode}
            onChange={set("setupCode")}
            {...describedBy("setupCode", codeErrors)}
          />
        </Field>
        <Field id="name" label={t("auth.name")} errors={errors.name}>
          <input id="name" autoComplete="name" value={values.name} onChange={set("name")} {...describedBy("name", errors.name)} />
        </Field>
        <Field id="email" label={t("auth.email")} errors={errors.email}>
          <input id="email" type="email" autoComplete="username" value={values.email} onChange={set("email")} {...describedBy("email", errors.email)} />
        </Field>
        <Field id="password" label={t("auth.password")} errors={errors.password} hint={t("auth.passwordHint")}>
          <input id="password" type="password" autoComplete="new-password" value={values.password} onChange={set("password")} {...describedBy("password", errors.password)} />
        </Field>
        <Field id="workspaceName" label={t("auth.workspaceName")} errors={errors.workspaceName}>
          <input id="workspaceName" value={values.workspaceName} onChange={set("workspaceName")} />
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          {t("auth.createOwner")}
        </button>
      </form>
    </main>
  );
}
