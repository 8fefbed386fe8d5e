import type { AppVersion, Board, FeatureRequestSort } from "@tidings/client";
import { useTidings, type FeatureRequestsState } from "@tidings/react-core";
import { Chip, ChipRow } from "./FilterChips.js";

const SORTS: readonly { sort: FeatureRequestSort; label: "requests.sortTop" | "requests.sortNewest" | "requests.sortTrending" }[] = [
  { sort: "top", label: "requests.sortTop" },
  { sort: "newest", label: "requests.sortNewest" },
  { sort: "trending", label: "requests.sortTrending" },
];

/**
 * The chip rows above the request list: the board (given more than one), the version (when the
 * app has versions), the sort, and the tags (when any are in use).
 */
export function RequestFilters(props: {
  list: Pick<FeatureRequestsState, "board" | "versionId" | "setVersionId" | "sort" | "setSort" | "tagChoices" | "tags" | "toggleTag">;
  boards: readonly Board[];
  versions: readonly AppVersion[];
  onPickBoard: (slug: string | undefined) => void;
}) {
  const { t } = useTidings();
  const { list } = props;
  return (
    <>
      {props.boards.length > 1 ? (
        <ChipRow label={t("requests.board")}>
          <Chip label={t("requests.allBoards")} selected={list.board === undefined} onPress={() => props.onPickBoard(undefined)} />
          {props.boards.map((b) => (
            <Chip key={b.id} label={b.name} selected={list.board === b.slug} onPress={() => props.onPickBoard(b.slug)} />
          ))}
        </ChipRow>
      ) : null}
      {props.versions.length > 0 ? (
        <ChipRow label={t("requests.version")}>
          <Chip label={t("requests.allVersions")} selected={list.versionId === undefined} onPress={() => list.setVersionId(undefined)} />
          {props.versions.map((v) => (
            <Chip key={v.id} label={v.label} selected={list.versionId === v.id} onPress={() => list.setVersionId(v.id)} />
          ))}
        </ChipRow>
      ) : null}
      <ChipRow label={t("requests.sort")}>
        {SORTS.map((s) => (
          <Chip key={s.sort} label={t(s.label)} selected={list.sort === s.sort} onPress={() => list.setSort(s.sort)} />
        ))}
      </ChipRow>
      {list.tagChoices.length > 0 ? (
        <ChipRow label={t("requests.tagFilter")} multiple>
          {list.tagChoices.map((tag) => (
            <Chip key={tag.slug} label={tag.name} multiple selected={list.tags.includes(tag.slug)} onPress={() => list.toggleTag(tag.slug)} />
          ))}
        </ChipRow>
      ) : null}
    </>
  );
}
