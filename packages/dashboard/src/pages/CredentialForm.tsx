import { useState } from "react";
import { api } from "../api.js";
import { Field } from "../components/ui.js";
import { t } from "../i18n/t.js";

/**
 * Saves a tracker connection's new credential (`PATCH path {[field]: value}`): a rotated token or
 * key, or the one that repairs a connection the tracker refused. Clears itself once saved.
 */
export function CredentialForm(props: {
  id: string;
  label: string;
  /** The body field the connection takes it in: `token` (GitHub) or `apiKey` (Linear). */
  field: string;
  path: string;
  run: (work: () => Promise<unknown>, message?: string) => Promise<boolean>;
}) {
  const [value, setValue] = useState("");
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void props.run(() => api("PATCH", props.path, { [props.field]: value.trim() }), t("integrations.credentialSaved")).then((ok) => ok && setValue(""));
      }}
    >
      <Field id={props.id} label={props.label}>
        <input id={props.id} type="password" autoComplete="off" required value={value} onChange={(e) => setValue(e.target.value)} />
      </Field>
      <button type="submit">{t("integrations.saveCredential")}</button>
    </form>
  );
}
