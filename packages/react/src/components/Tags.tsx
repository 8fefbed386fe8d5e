import type { PublicTag } from "@tidings/client";
import { useTidings, type FeatureRequestsState } from "@tidings/react-core";

/** A tag's name with a dot of its colour (the chip keeps the theme's colours, so any tag colour stays readable). */
function TagLabel(props: { tag: PublicTag }) {
  return (
    <>
      <span className="td-tag-dot" aria-hidden="true" style={props.tag.color === null ? undefined : { backgroundColor: props.tag.color }} />
      {props.tag.name}
    </>
  );
}

/**
 * A request's public tags as chips, inside a row's or the detail's badges.
 *
 * @example
 * ```tsx
 * <TagChips tags={item.tags} />
 * ```
 */
export function TagChips(props: { tags: readonly PublicTag[] | undefined }) {
  return (
    <>
      {(props.tags ?? []).map((tag) => (
        <span key={tag.slug} className="td-badge td-tag">
          <TagLabel tag={tag} />
        </span>
      ))}
    </>
  );
}

/**
 * The tag filter of a listing: a toggle per tag seen on the listed requests; a request must carry
 * every tag pressed. Draws nothing before any tag is seen.
 *
 * @example
 * ```tsx
 * const list = useFeatureRequests();
 * <TagFilter list={list} />
 * ```
 */
export function TagFilter(props: { list: Pick<FeatureRequestsState, "tagChoices" | "tags" | "toggleTag"> }) {
  const { t } = useTidings();
  const { tagChoices, tags, toggleTag } = props.list;
  if (tagChoices.length === 0) return null;
  return (
    <div className="td-tag-filter" role="group" aria-label={t("requests.tagFilter")}>
      {tagChoices.map((tag) => (
        <button key={tag.slug} type="button" className="td-badge td-tag td-tag-toggle" aria-pressed={tags.includes(tag.slug)} onClick={() => toggleTag(tag.slug)}>
          <TagLabel tag={tag} />
        </button>
      ))}
    </div>
  );
}
