import type { Tag } from "@tidings/protocol";
import { api } from "../api.js";
import { TagChip } from "../components/TagChip.js";
import { ConfirmButton } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { formFromTag } from "../tag-form.js";
import { TagEditor } from "./TagEditor.js";

/** One tag's line: its chip, slug, visibility and use with edit and delete, or its editor while it is being edited. */
export function TagRow(props: {
  base: string;
  tag: Tag;
  editing: boolean;
  canConfigure: boolean;
  onEditing: (tagId: string | null) => void;
  onSaved: () => void;
  run: (work: () => Promise<unknown>, message?: string) => Promise<boolean>;
}) {
  const { tag } = props;
  return (
    <li className="row" data-testid="tag-row">
      {props.editing ? (
        <div className="row-main">
          <TagEditor
            idPrefix={`tag-${tag.id}`}
            initial={formFromTag(tag)}
            submitLabel={t("common.save")}
            onCancel={() => props.onEditing(null)}
            onSubmit={async (body) => {
              await api("PATCH", `${props.base}/tags/${tag.id}`, body);
              props.onEditing(null);
              props.onSaved();
            }}
          />
        </div>
      ) : (
        <>
          <div className="row-main">
            <span>
              <TagChip tag={tag} />
            </span>
            <small>
              <code>{tag.slug}</code> · {t(`tags.visibility.${tag.visibility}`)} · {t("boards.requests", { count: tag.requestCount })}
            </small>
          </div>
          {props.canConfigure ? (
            <div className="row-actions">
              <button type="button" aria-label={t("tags.edit", { name: tag.name })} onClick={() => props.onEditing(tag.id)}>
                {t("common.edit")}
              </button>
              <ConfirmButton label={t("tags.delete", { name: tag.name })} question={t("tags.confirmDelete", { name: tag.name })} onConfirm={() => void props.run(() => api("DELETE", `${props.base}/tags/${tag.id}`), t("tags.deleted"))}>
                {t("common.delete")}
              </ConfirmButton>
            </div>
          ) : null}
        </>
      )}
    </li>
  );
}
