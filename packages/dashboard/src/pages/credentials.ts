import { type SessionState, textLength } from "@tidings/protocol";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

/** What a sign-in, set-up or invitation form does with the session it gets. */
export type Done = (state: SessionState) => void;

/** Checks an email, a password (at least 10 characters when `strictPassword`) and, when given, a name before sending. */
export function checkCredentials(values: { email: string; password: string; name?: string }, strictPassword: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email.trim())) errors.email = [t("validation.email")];
  if (strictPassword ? textLength(values.password) < 10 : values.password === "") errors.password = [strictPassword ? t("validation.password") : t("validation.required")];
  if (values.name !== undefined && values.name.trim() === "") errors.name = [t("validation.required")];
  return errors;
}
