import { type AppVersion, textLength } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { ApiFailure } from "../api.js";
import { describedBy, Field, FormActions } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

/** Checks a version form before sending; answers field errors. */
export function validateVersion(label: string, description: string): FieldErrors {
  const errors: FieldErrors = {};
  if (label.trim() === "") errors.label = [t("validation.required")];
  else if (textLength(label.trim()) > 60) errors.label = [t("validation.tooLong", { max: 60 })];
  if (textLength(description) > 2000) errors.description = [t("validation.tooLong", { max: 2000 })];
  return errors;
}

export function VersionForm(props: { idPrefix: string; initial?: AppVersion; submitLabel: string; onSubmit: (label: string, description: string | null) => Promise<void>; onCancel?: () => void }) {
  const [label, setLabel] = useState(props.initial?.label ?? "");
  const [description, setDescription] = useState(props.initial?.description ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const local = validateVersion(label, description);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      await props.onSubmit(label.trim(), description.trim() === "" ? null : description.trim());
      if (props.initial === undefined) {
        setLabel("");
        setDescription("");
      }
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      setFailure(error);
    }
  };
  const id = props.idPrefix;
  return (
    <form className="settings" onSubmit={(e) => void submit(e)} noValidate>
      <Field id={`${id}-label`} label={t("versions.label")} errors={errors.label}>
        <input id={`${id}-label`} value={label} onChange={(e) => setLabel(e.target.value)} {...describedBy(`${id}-label`, errors.label)} />
      </Field>
      <Field id={`${id}-description`} label={t("versions.description")} errors={errors.description}>
        <textarea id={`${id}-description`} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} {...describedBy(`${id}-description`, errors.description)} />
      </Field>
      <FormActions failure={failure} submitLabel={props.submitLabel} onCancel={props.onCancel} />
    </form>
  );
}
