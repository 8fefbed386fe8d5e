import type { CreateBoardBody } from "@tidings/protocol";
import { boardBody, validateBoard, type BoardForm, type PayingRule } from "../board-form.js";
import { choices, Select, type Choice } from "../components/Select.js";
import { formFields } from "../components/form-fields.js";
import { useEditorForm } from "../components/useEditorForm.js";
import { describedBy, FormActions } from "../components/ui.js";
import { t } from "../i18n/t.js";

/** Where a refusal that names no body field belongs on the board form. */
const BOARD_ERROR_FIELDS = { slug_taken: "slug", default_board: "visibility", segment_not_found: "accessRule.segmentId" };

export function BoardEditor(props: { idPrefix: string; segments: readonly Choice[]; initial: BoardForm; submitLabel: string; onSubmit: (body: CreateBoardBody) => Promise<void>; onCancel?: () => void }) {
  const { form, update, errors, failure, onSubmit } = useEditorForm({
    initial: props.initial,
    validate: validateBoard,
    save: (draft) => props.onSubmit(boardBody(draft)),
    byCode: BOARD_ERROR_FIELDS,
    reset: props.onCancel === undefined,
  });
  const { id, field } = formFields(props.idPrefix, errors);
  return (
    <form className="settings" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={props.submitLabel}>
      {field("name", "name", t("boards.name"), (errs) => (
        <input id={id("name")} value={form.name} onChange={(e) => update({ name: e.target.value })} {...describedBy(id("name"), errs)} />
      ))}
      {field("slug", "slug", t("boards.slug"), (errs) => <input id={id("slug")} value={form.slug} onChange={(e) => update({ slug: e.target.value })} {...describedBy(id("slug"), errs)} />, t("organize.slugHint"))}
      {field("description", "description", t("boards.description"), (errs) => (
        <textarea id={id("description")} rows={2} value={form.description} onChange={(e) => update({ description: e.target.value })} {...describedBy(id("description"), errs)} />
      ))}
      {field("visibility", "visibility", t("boards.visibility"), (errs) => (
        <Select
          id={id("visibility")}
          value={form.visibility}
          choices={choices(["public", "private"] as const, (v) => t(`boards.visibility.${v}`))}
          onChange={(visibility) => update({ visibility: visibility as BoardForm["visibility"] })}
          {...describedBy(id("visibility"), errs)}
        />
      ))}
      {form.visibility === "private" ? (
        <fieldset>
          <legend>{t("boards.access")}</legend>
          <p className="hint">{t("boards.accessHint")}</p>
          {field("plans", "accessRule.plans", t("boards.plans"), (errs) => <input id={id("plans")} value={form.plans} onChange={(e) => update({ plans: e.target.value })} {...describedBy(id("plans"), errs)} />, t("boards.plansHint"))}
          {field("paying", "accessRule.isPaying", t("boards.paying"), (errs) => (
            <Select
              id={id("paying")}
              value={form.paying}
              choices={choices(["any", "yes", "no"] as const, (v) => t(`boards.paying.${v}`))}
              onChange={(paying) => update({ paying: paying as PayingRule })}
              {...describedBy(id("paying"), errs)}
            />
          ))}
          {field("segment", "accessRule.segmentId", t("boards.segment"), (errs) => (
            <Select id={id("segment")} value={form.segmentId} choices={props.segments} onChange={(segmentId) => update({ segmentId })} {...describedBy(id("segment"), errs)} />
          ))}
        </fieldset>
      ) : null}
      <FormActions failure={failure} submitLabel={props.submitLabel} onCancel={props.onCancel} />
    </form>
  );
}
