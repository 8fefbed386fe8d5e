import type { ReactNode } from "react";
import { errorsAt } from "../form-errors.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";
import { Field } from "./ui.js";

/**
 * The labelled rows of an editor form whose inputs are named under `idPrefix`: `id(name)` names an
 * input, and `field(name, path, label, input)` wraps it in its label with the errors the form holds
 * at the body path `path` (a list's items numbered), passed to `input` to describe it.
 *
 * @example
 * ```tsx
 * const { id, field } = formFields("board-new", errors);
 * field("name", "name", t("boards.name"), (errs) => <input id={id("name")} {...describedBy(id("name"), errs)} />);
 * ```
 */
export function formFields(idPrefix: string, errors: FieldErrors) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const field = (name: string, path: string, label: string, input: (errs: string[] | undefined) => ReactNode, hint?: string) => {
    const errs = errorsAt(errors, path, (i) => t("form.item", { n: i + 1 }));
    return (
      <Field id={id(name)} label={label} errors={errs} hint={hint}>
        {input(errs)}
      </Field>
    );
  };
  return { id, field };
}
