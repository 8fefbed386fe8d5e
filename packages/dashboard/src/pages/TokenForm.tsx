import { textLength } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { Select } from "../components/Select.js";
import { describedBy, Field } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";
import type { Token } from "./TokenRow.js";

/**
 * Creates a token: its name, scope and, when a workspace is on screen, whether it is bound to it.
 * `onStart` runs before each try, `onCreated` gets the new secret, `onFailure` a refusal.
 */
export function TokenForm(props: {
  workspace: { id: string; name: string } | undefined;
  onStart: () => void;
  onCreated: (token: string) => void;
  onFailure: (error: unknown) => void;
}) {
  const [name, setName] = useState("");
  const [scope, setScope] = useState<Token["scope"]>("read-write");
  const [bound, setBound] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});

  const create = async (event: FormEvent) => {
    event.preventDefault();
    props.onStart();
    const trimmed = name.trim();
    const local: FieldErrors = {};
    if (trimmed === "") local.name = [t("validation.required")];
    else if (textLength(trimmed) > 120) local.name = [t("validation.tooLong", { max: 120 })];
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      const workspaceId = bound ? props.workspace?.id : undefined;
      const answer = await api<Token & { token: string }>("POST", "/tokens", { name: trimmed, scope, ...(workspaceId === undefined ? {} : { workspaceId }) });
      setName("");
      props.onCreated(answer.token);
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      props.onFailure(error);
    }
  };

  return (
    <form className="inline-form" onSubmit={(e) => void create(e)} noValidate>
      <Field id="token-name" label={t("tokens.name")} errors={errors.name}>
        <input id="token-name" value={name} onChange={(e) => setName(e.target.value)} {...describedBy("token-name", errors.name)} />
      </Field>
      <Field id="token-scope" label={t("tokens.scope")} errors={errors.scope}>
        <Select
          id="token-scope"
          value={scope}
          choices={[
            { value: "read-write", label: t("tokens.scopeReadWrite") },
            { value: "read", label: t("tokens.scopeRead") },
          ]}
          onChange={(value) => setScope(value === "read" ? "read" : "read-write")}
        />
      </Field>
      {props.workspace === undefined ? null : (
        <label>
          <input type="checkbox" checked={bound} onChange={(e) => setBound(e.target.checked)} /> {t("tokens.bound", { workspace: props.workspace.name })}
        </label>
      )}
      <button type="submit" className="primary">
        {t("tokens.create")}
      </button>
    </form>
  );
}
