import type { AdminFeatureRequest } from "@tidings/protocol";
import type { FormEvent } from "react";
import { Select } from "../components/Select.js";
import { describedBy, Field } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

/** Merging a request into another: the target picked among `candidates`. */
export function RequestMerge(props: { candidates: readonly AdminFeatureRequest[]; value: string; errors: FieldErrors; onChange: (requestId: string) => void; onMerge: (event: FormEvent) => void }) {
  const { errors } = props;
  return (
    <>
      <h2>{t("detail.merge")}</h2>
      <form className="inline-form" onSubmit={props.onMerge} noValidate>
        <Field id="merge-into" label={t("detail.mergeTarget")} errors={errors.intoId}>
          <Select
            id="merge-into"
            value={props.value}
            choices={[{ value: "", label: "—" }, ...props.candidates.map((r) => ({ value: r.id, label: `${r.title} (${r.voteCount})` }))]}
            onChange={props.onChange}
            {...describedBy("merge-into", errors.intoId)}
          />
        </Field>
        <button type="submit">{t("detail.mergeButton")}</button>
      </form>
    </>
  );
}
