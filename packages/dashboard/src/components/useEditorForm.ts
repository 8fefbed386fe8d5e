import { useState, type FormEvent } from "react";
import { formErrorsOf } from "../form-errors.js";
import type { FieldErrors } from "../settings-form.js";

/**
 * The state of an add-or-edit form (a board, a tag, a custom field): the draft, its field errors
 * and a failure no field owns. `onSubmit` checks the draft with `validate` before sending it;
 * the server's refusals go to their fields (`byCode` names the field of a refusal that carries no
 * field errors, e.g. `slug_taken` → `slug`), anything else to `failure`. With `reset` the draft
 * goes back to `initial` once saved (an "add" form).
 *
 * @example
 * ```ts
 * const editor = useEditorForm({ initial: EMPTY_TAG_FORM, validate: validateTag, save: (form) => onSubmit(tagBody(form)), byCode: { slug_taken: "slug" }, reset: true });
 * ```
 */
export function useEditorForm<F>(options: { initial: F; validate: (form: F) => FieldErrors; save: (form: F) => Promise<void>; byCode?: Readonly<Record<string, string>>; reset: boolean }) {
  const [form, setForm] = useState(options.initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const update = (patch: Partial<F>) => setForm({ ...form, ...patch });
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const local = options.validate(form);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      await options.save(form);
      if (options.reset) setForm(options.initial);
    } catch (error) {
      const named = formErrorsOf(error, options.byCode);
      setErrors(named);
      if (Object.keys(named).length === 0) setFailure(error);
    }
  };
  return { form, update, errors, failure, onSubmit };
}
