import type { SessionState } from "@tidings/protocol";
import { useEffect, useState, type FormEvent } from "react";
import { api } from "../api.js";
import { describedBy, ErrorBanner, Field } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";
import { checkCredentials, type Done } from "./credentials.js";
import { useAuthSubmit } from "./useAuthSubmit.js";

interface Preview {
  email: string;
  role: string;
  workspaceName: string;
  existingUser: boolean;
}

export function AcceptInvite(props: { onDone: Done }) {
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";
  const [preview, setPreview] = useState<Preview | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const { errors, failure, busy, submit } = useAuthSubmit(props.onDone);
  useEffect(() => {
    api<Preview>("GET", `/auth/invitation?token=${encodeURIComponent(token)}`).then(setPreview, setLoadError);
  }, [token]);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const local: FieldErrors = preview?.existingUser === true ? {} : checkCredentials({ email: preview?.email ?? "", password }, true);
    if (preview?.existingUser === true && password === "") local.password = [t("validation.required")];
    void submit(local, () => api<SessionState>("POST", "/auth/accept-invite", { token, password, ...(name.trim() === "" ? {} : { name: name.trim() }) }));
  };
  return (
    <main className="auth">
      <form onSubmit={onSubmit} noValidate aria-labelledby="accept-title">
        <h1 id="accept-title">{preview === null ? t("auth.accept") : t("auth.acceptTitle", { workspace: preview.workspaceName })}</h1>
        <ErrorBanner error={loadError ?? failure} />
        {preview === null ? null : (
          <>
            <p>{t("auth.acceptIntro", { role: t(`role.${preview.role}` as "role.member"), email: preview.email })}</p>
            {preview.existingUser ? (
              <p>{t("auth.acceptExisting")}</p>
            ) : (
              <Field id="name" label={t("auth.name")} errors={errors.name}>
                <input id="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
              </Field>
            )}
            <Field id="password" label={t("auth.password")} errors={errors.password} hint={preview.existingUser ? undefined : t("auth.passwordHint")}>
              <input id="password" type="password" autoComplete={preview.existingUser ? "current-password" : "new-password"} value={password} onChange={(e) => setPassword(e.target.value)} {...describedBy("password", errors.password)} />
            </Field>
            <button type="submit" className="primary" disabled={busy}>
              {t("auth.accept")}
            </button>
          </>
        )}
      </form>
    </main>
  );
}
