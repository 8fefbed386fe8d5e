import { MAX_TAG_FILTERS, type Tag } from "@tidings/protocol";
import { t } from "../i18n/t.js";
import { Select } from "./Select.js";
import { TagChip } from "./TagChip.js";

/** The tags a list is filtered on (every one must be on a request), as removable chips, and a menu to add one. */
export function TagFilter(props: { tags: readonly Tag[]; selected: readonly string[]; onChange: (tagIds: string[]) => void }) {
  const chosen = props.selected.map((id) => props.tags.find((tag) => tag.id === id)).filter((tag): tag is Tag => tag !== undefined);
  const left = props.tags.filter((tag) => !props.selected.includes(tag.id));
  return (
    <>
      {props.selected.length < MAX_TAG_FILTERS && left.length > 0 ? (
        <label>
          {t("requests.tagFilter")}{" "}
          <Select value="" choices={[{ value: "", label: t("requests.addTagFilter") }, ...left.map((tag) => ({ value: tag.id, label: tag.name }))]} onChange={(id) => id !== "" && props.onChange([...props.selected, id])} />
        </label>
      ) : null}
      {chosen.map((tag) => (
        <TagChip key={tag.id} tag={tag}>
          <button type="button" className="link" aria-label={t("requests.removeTagFilter", { name: tag.name })} onClick={() => props.onChange(props.selected.filter((id) => id !== tag.id))}>
            ×
          </button>
        </TagChip>
      ))}
    </>
  );
}
