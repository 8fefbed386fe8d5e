import type { AppVersion, Board, FeatureRequestSort } from "@tidings/client";
import { useTidings, type FeatureRequestsState } from "@tidings/react-core";
import { useId } from "react";

/**
 * The toolbar above the request list: the board switcher (given more than one board), search,
 * the version filter (when the app has versions), sort, and the "Suggest a feature" button (given
 * `onPropose`).
 */
export function RequestToolbar(props: {
  list: Pick<FeatureRequestsState, "board" | "query" | "setQuery" | "versionId" | "setVersionId" | "sort" | "setSort">;
  boards: readonly Board[];
  versions: readonly AppVersion[];
  onPickBoard: (slug: string | undefined) => void;
  onPropose?: (() => void) | undefined;
}) {
  const { t } = useTidings();
  const { list } = props;
  const searchId = useId();
  const versionId = useId();
  const sortId = useId();
  const boardId = useId();
  return (
    <div className="td-toolbar">
      {props.boards.length > 1 ? (
        <>
          <label className="td-visually-hidden" htmlFor={boardId}>
            {t("requests.board")}
          </label>
          <select id={boardId} className="td-input" value={list.board ?? ""} onChange={(e) => props.onPickBoard(e.target.value === "" ? undefined : e.target.value)}>
            <option value="">{t("requests.allBoards")}</option>
            {props.boards.map((b) => (
              <option key={b.id} value={b.slug}>
                {b.name}
              </option>
            ))}
          </select>
        </>
      ) : null}
      <label className="td-visually-hidden" htmlFor={searchId}>
        {t("requests.search")}
      </label>
      <input
        id={searchId}
        type="search"
        className="td-input td-search"
        placeholder={t("requests.searchPlaceholder")}
        value={list.query}
        onChange={(e) => list.setQuery(e.target.value)}
      />
      {props.versions.length > 0 ? (
        <>
          <label className="td-visually-hidden" htmlFor={versionId}>
            {t("requests.version")}
          </label>
          <select id={versionId} className="td-input" value={list.versionId ?? ""} onChange={(e) => list.setVersionId(e.target.value === "" ? undefined : e.target.value)}>
            <option value="">{t("requests.allVersions")}</option>
            {props.versions.map((v) => (
              <option key={v.id} value={v.id}>
                {v.label}
              </option>
            ))}
          </select>
        </>
      ) : null}
      <label className="td-visually-hidden" htmlFor={sortId}>
        {t("requests.sort")}
      </label>
      <select id={sortId} className="td-input" value={list.sort} onChange={(e) => list.setSort(e.target.value as FeatureRequestSort)}>
        <option value="top">{t("requests.sortTop")}</option>
        <option value="newest">{t("requests.sortNewest")}</option>
        <option value="trending">{t("requests.sortTrending")}</option>
      </select>
      {props.onPropose === undefined ? null : (
        <button type="button" className="td-button td-primary" onClick={props.onPropose}>
          {t("requests.propose")}
        </button>
      )}
    </div>
  );
}
