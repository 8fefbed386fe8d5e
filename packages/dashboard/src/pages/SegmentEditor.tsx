import type { CreateSegmentBody } from "@tidings/protocol";
import type { PayingRule } from "../board-form.js";
import { choices, Select } from "../components/Select.js";
import { formFields } from "../components/form-fields.js";
import { useEditorForm } from "../components/useEditorForm.js";
import { describedBy, FormActions } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { segmentBody, type MrrInput, type SegmentForm } from "../segment-form.js";
import { validateSegment } from "../segment-validation.js";

/** Where a refusal that names no body field belongs on the segment form. */
const SEGMENT_ERROR_FIELDS = { unknown_currency: "rule", too_many_segments: "name" };

/** The add-or-edit form of a segment: its name and each condition of its rule. */
export function SegmentEditor(props: { idPrefix: string; initial: SegmentForm; submitLabel: string; onSubmit: (body: CreateSegmentBody) => Promise<void>; onCancel?: () => void }) {
  const { form, update, errors, failure, onSubmit } = useEditorForm({
    initial: props.initial,
    validate: validateSegment,
    save: (draft) => props.onSubmit(segmentBody(draft)),
    byCode: SEGMENT_ERROR_FIELDS,
    reset: props.onCancel === undefined,
  });
  const { id, field } = formFields(props.idPrefix, errors);
  const text = (name: string, path: string, label: string, value: string, set: (value: string) => void, hint?: string) =>
    field(name, path, label, (errs) => <input id={id(name)} value={value} onChange={(e) => set(e.target.value)} {...describedBy(id(name), errs)} />, hint);
  const mrr = (name: "userMrr" | "companyMrr", path: string, what: string) => {
    const set = (patch: Partial<MrrInput>) => update({ [name]: { ...form[name], ...patch } });
    return (
      <div className="inline-form">
        {text(`${name}-min`, `${path}.min`, t("segments.mrrMin", { what }), form[name].min, (min) => set({ min }))}
        {text(`${name}-max`, `${path}.max`, t("segments.mrrMax", { what }), form[name].max, (max) => set({ max }))}
        {text(`${name}-currency`, `${path}.currency`, t("segments.mrrCurrency", { what }), form[name].currency, (currency) => set({ currency }), t("segments.mrrHint"))}
      </div>
    );
  };
  const setAttribute = (index: number, patch: Partial<SegmentForm["attributes"][number]>) => update({ attributes: form.attributes.map((a, i) => (i === index ? { ...a, ...patch } : a)) });
  return (
    <form className="settings" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={props.submitLabel}>
      {text("name", "name", t("segments.name"), form.name, (name) => update({ name }))}
      {errors.rule === undefined ? null : (
        <p className="field-error" role="alert">
          {errors.rule.join(" ")}
        </p>
      )}
      <fieldset>
        <legend>{t("segments.user")}</legend>
        {text("userPlans", "rule.user.plans", t("segments.userPlans"), form.userPlans, (userPlans) => update({ userPlans }), t("segments.plansHint"))}
        {field("userPaying", "rule.user.isPaying", t("segments.paying"), (errs) => (
          <Select
            id={id("userPaying")}
            value={form.userPaying}
            choices={choices(["any", "yes", "no"] as const, (v) => t(`segments.paying.${v}`))}
            onChange={(userPaying) => update({ userPaying: userPaying as PayingRule })}
            {...describedBy(id("userPaying"), errs)}
          />
        ))}
        {mrr("userMrr", "rule.user.mrr", t("segments.userMrr"))}
      </fieldset>
      <fieldset>
        <legend>{t("segments.company")}</legend>
        {text("companyIds", "rule.company.ids", t("segments.companyIds"), form.companyIds, (companyIds) => update({ companyIds }), t("segments.companyIdsHint"))}
        {text("companyPlans", "rule.company.plans", t("segments.companyPlans"), form.companyPlans, (companyPlans) => update({ companyPlans }), t("segments.plansHint"))}
        {mrr("companyMrr", "rule.company.mrr", t("segments.companyMrr"))}
        <h4>{t("segments.attributes")}</h4>
        {form.attributes.map((attribute, index) => {
          const n = index + 1;
          return (
            <div key={index} className="inline-form" data-testid="segment-attribute">
              {text(`attr-${index}-key`, `rule.company.attributes.${index}.key`, t("segments.attributeKeyLabel", { n }), attribute.key, (key) => setAttribute(index, { key }))}
              {text(`attr-${index}-values`, `rule.company.attributes.${index}.in`, t("segments.attributeValuesLabel", { n }), attribute.values, (values) => setAttribute(index, { values }), t("segments.attributeValuesHint"))}
              <button type="button" onClick={() => update({ attributes: form.attributes.filter((_, i) => i !== index) })}>
                {t("segments.removeAttribute", { n })}
              </button>
            </div>
          );
        })}
        <button type="button" onClick={() => update({ attributes: [...form.attributes, { key: "", values: "" }] })}>
          {t("segments.addAttribute")}
        </button>
      </fieldset>
      <FormActions failure={failure} submitLabel={props.submitLabel} onCancel={props.onCancel} />
    </form>
  );
}
