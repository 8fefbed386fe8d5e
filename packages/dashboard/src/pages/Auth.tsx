import { type SessionState, textLength } from "@tidings/protocol";
import { useEffect, useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { describedBy, ErrorBanner, Field } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

type Done = (state: SessionState) => void;

function checkCredentials(values: { email: string; password: string; name?: string }, strictPassword: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email.trim())) errors.email = [t("validation.email")];
  if (strictPassword ? textLength(values.password) < 10 : values.password === "") errors.password = [strictPassword ? t("validation.password") : t("validation.required")];
  if (values.name !== undefined && values.name.trim() === "") errors.name = [t("validation.required")];
  return errors;
}

function useSubmit(onDone: Done) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (local: FieldErrors, send: () => Promise<SessionState>) => {
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      onDone(await send());
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return { errors, failure, busy, submit };
}

export function SignIn(props: { onDone: Done; notice?: string | undefined }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { errors, failure, busy, submit } = useSubmit(props.onDone);
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
  const { errors, failure, busy, submit } = useSubmit(props.onDone);
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
  const { errors, failure, busy, submit } = useSubmit(props.onDone);
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
