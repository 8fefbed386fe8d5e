import type { SessionState } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import { describedBy, ErrorBanner, Field } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { checkCredentials, type Done } from "./credentials.js";
import { useAuthSubmit } from "./useAuthSubmit.js";

export function SignIn(props: { onDone: Done; notice?: string | undefined }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { errors, failure, busy, submit } = useAuthSubmit(props.onDone);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(checkCredentials({ email, password }, false), () => api<SessionState>("POST", "/auth/login", { email, password }));
  };
  return (
    <main className="auth">
      <form onSubmit={onSubmit} noValidate aria-labelledby="signin-title">
        <h1 id="signin-title">{t("auth.signInTitle")}</h1>
        {props.notice === undefined ? null : <p className="banner banner-info" role="status">{props.notice}</p>}
        <ErrorBanner error={failure} />
        <Field id="email" label={t("auth.email")} errors={errors.email}>
          <input id="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} {...describedBy("email", errors.email)} />
        </Field>
        <Field id="password" label={t("auth.password")} errors={errors.password}>
          <input id="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} {...describedBy("password", errors.password)} />
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          {t("auth.signIn")}
        </button>
      </form>
    </main>
  );
}
