import type { CreateTagBody } from "@tidings/protocol";
import { choices, Select } from "../components/Select.js";
import { useEditorForm } from "../components/useEditorForm.js";
import { describedBy, ErrorBanner, Field, SubmitButtons } from "../components/ui.js";
import { errorsAt } from "../form-errors.js";
import { t } from "../i18n/t.js";
import { tagBody, validateTag, type TagForm } from "../tag-form.js";

export function TagEditor(props: { idPrefix: string; initial: TagForm; submitLabel: string; onSubmit: (body: CreateTagBody) => Promise<void>; onCancel?: () => void }) {
  const { form, update, errors, failure, onSubmit } = useEditorForm({
    initial: props.initial,
    validate: validateTag,
    save: (draft) => props.onSubmit(tagBody(draft)),
    byCode: { slug_taken: "slug" },
    reset: props.onCancel === undefined,
  });
  const id = (name: string) => `${props.idPrefix}-${name}`;
  const err = (path: string) => errorsAt(errors, path);
  return (
    <form className="inline-form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={props.submitLabel}>
      <Field id={id("name")} label={t("tags.name")} errors={err("name")}>
        <input id={id("name")} value={form.name} onChange={(e) => update({ name: e.target.value })} {...describedBy(id("name"), err("name"))} />
      </Field>
      <Field id={id("slug")} label={t("tags.slug")} errors={err("slug")}>
        <input id={id("slug")} value={form.slug} placeholder={t("organize.slugPlaceholder")} onChange={(e) => update({ slug: e.target.value })} {...describedBy(id("slug"), err("slug"))} />
      </Field>
      <Field id={id("color")} label={t("tags.color")} errors={err("color")}>
        <span className="color-input">
          <input id={id("color")} value={form.color} placeholder="#4f46e5" size={9} onChange={(e) => update({ color: e.target.value })} {...describedBy(id("color"), err("color"))} />
          <input type="color" aria-label={t("tags.pickColor")} value={/^#[0-9a-fA-F]{6}$/.test(form.color) ? form.color : "#94a3b8"} onChange={(e) => update({ color: e.target.value })} />
        </span>
      </Field>
      <Field id={id("visibility")} label={t("tags.visibility")} errors={err("visibility")}>
        <Select
          id={id("visibility")}
          value={form.visibility}
          choices={choices(["public", "team"] as const, (v) => t(`tags.visibility.${v}`))}
          onChange={(visibility) => update({ visibility: visibility as TagForm["visibility"] })}
        />
      </Field>
      <SubmitButtons submitLabel={props.submitLabel} onCancel={props.onCancel} />
      <ErrorBanner error={failure} />
    </form>
  );
}
