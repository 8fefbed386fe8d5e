import type { AdminFeatureRequest, Board, CustomField, Tag } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { Select } from "../components/Select.js";
import { TagChip } from "../components/TagChip.js";
import { describedBy, ErrorBanner, Field, Notice, useLoad } from "../components/ui.js";
import { errorsAt, formErrorsOf } from "../form-errors.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";
import { RequestFieldValues } from "./RequestFieldValues.js";

/**
 * A request's board, tags and custom field values, each changed on its own: the board and tags
 * at once, the values with their form's Save (only the values changed are sent).
 */
export function RequestOrganize(props: { wsId: string; appId: string; request: AdminFeatureRequest; onChanged: () => void }) {
  const appBase = `/workspaces/${props.wsId}/apps/${props.appId}`;
  const r = props.request;
  const boards = useLoad(() => api<{ boards: Board[] }>("GET", `${appBase}/boards`), [props.wsId, props.appId]);
  const tags = useLoad(() => api<{ tags: Tag[] }>("GET", `${appBase}/tags`), [props.wsId, props.appId]);
  const fields = useLoad(() => api<{ fields: CustomField[] }>("GET", `${appBase}/fields`), [props.wsId, props.appId]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  /** Runs one change; a refusal goes to the input it names (`at` when it names none), or to the banner. */
  const change = async (at: string, work: () => Promise<unknown>): Promise<boolean> => {
    setErrors({});
    setFailure(null);
    setNotice(null);
    try {
      await work();
      setNotice(t("common.saved"));
      props.onChanged();
      return true;
    } catch (error) {
      const named = formErrorsOf(error, { too_many_tags: at, tag_not_found: at, board_not_found: at });
      setErrors(named);
      if (Object.keys(named).length === 0) setFailure(error);
      return false;
    }
  };
  const moveTo = (boardId: string) => void change("board", () => api("POST", `${appBase}/feature-requests/move`, { boardId, featureRequestIds: [r.id] }));
  const retag = (body: { add?: string[]; remove?: string[] }) => void change("tags", () => api("POST", `${appBase}/feature-requests/tags`, { featureRequestIds: [r.id], ...body }));

  const onTags = new Set(r.tags.map((tag) => tag.id));
  const addable = (tags.data?.tags ?? []).filter((tag) => !onTags.has(tag.id));
  const boardErrors = errorsAt(errors, "board");
  const tagErrors = errorsAt(errors, "tags");

  return (
    <section aria-labelledby="organize-request-title">
      <h2 id="organize-request-title">{t("detail.organize")}</h2>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={boards.error ?? tags.error ?? fields.error ?? failure} />
      <div className="inline-form">
        <Field id="request-board" label={t("detail.board")} errors={boardErrors}>
          <Select id="request-board" value={r.boardId} choices={(boards.data?.boards ?? []).map((b) => ({ value: b.id, label: b.name }))} onChange={moveTo} {...describedBy("request-board", boardErrors)} />
        </Field>
        <Field id="request-add-tag" label={t("detail.addTag")} errors={tagErrors}>
          <Select
            id="request-add-tag"
            value=""
            disabled={addable.length === 0}
            choices={[{ value: "", label: "—" }, ...addable.map((tag) => ({ value: tag.id, label: tag.name }))]}
            onChange={(id) => id !== "" && retag({ add: [id] })}
            {...describedBy("request-add-tag", tagErrors)}
          />
        </Field>
      </div>
      <div className="chips" role="group" aria-label={t("detail.tags")}>
        {r.tags.length === 0 ? <span className="hint">{t("detail.noTags")}</span> : null}
        {r.tags.map((tag) => (
          <TagChip key={tag.id} tag={tag}>
            <button type="button" className="link" aria-label={t("detail.removeTag", { name: tag.name })} onClick={() => retag({ remove: [tag.id] })}>
              ×
            </button>
          </TagChip>
        ))}
      </div>
      <RequestFieldValues wsId={props.wsId} request={r} fields={fields.data?.fields ?? []} errors={errors} onErrors={setErrors} change={change} />
    </section>
  );
}
