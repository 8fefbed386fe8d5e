import type { AdminFeatureRequest, Tag } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import type { Choice } from "../components/Select.js";
import { ErrorBanner } from "../components/ui.js";
import { t } from "../i18n/t.js";

/**
 * The bulk changes to the chosen requests (approve or decline, tag or untag, move to a board):
 * the tag and board picked for them and the failure of the last one. `onStart` runs before a
 * change, `onNotice` gets what it did, `onClear` clears the selection after moderation, and
 * `onDone` runs after it whatever happened.
 */
export function useRequestBulk(props: {
  wsId: string;
  appId: string;
  chosen: readonly string[];
  onStart: () => void;
  onNotice: (notice: string | null) => void;
  onClear: () => void;
  onDone: () => void;
}) {
  const base = `/workspaces/${props.wsId}`;
  const appBase = `${base}/apps/${props.appId}`;
  const [bulkTag, setBulkTag] = useState("");
  const [bulkBoard, setBulkBoard] = useState("");
  const [bulkFailure, setBulkFailure] = useState<unknown>(null);
  const { chosen } = props;
  const bulk = async (work: () => Promise<string>, clear = false) => {
    props.onStart();
    setBulkFailure(null);
    props.onNotice(null);
    try {
      props.onNotice(await work());
      if (clear) props.onClear();
    } catch (error) {
      setBulkFailure(error);
    }
    props.onDone();
  };
  const moderate = (action: "approve" | "decline") =>
    bulk(async () => {
      const answer = await api<{ updatedCount: number }>("POST", `${base}/feature-requests/bulk-moderate`, { ids: chosen, action });
      return t("requests.updated", { count: answer.updatedCount });
    }, true);
  const tagSelected = (change: "add" | "remove") =>
    bulk(async () => {
      const answer = await api<{ added: number; removed: number }>("POST", `${appBase}/feature-requests/tags`, { featureRequestIds: chosen, [change]: [bulkTag] });
      return change === "add" ? t("requests.tagged", { count: answer.added }) : t("requests.untagged", { count: answer.removed });
    });
  const moveSelected = () =>
    bulk(async () => {
      const answer = await api<{ moved: number }>("POST", `${appBase}/feature-requests/move`, { boardId: bulkBoard, featureRequestIds: chosen });
      return t("requests.moved", { count: answer.moved });
    });
  return { bulkTag, setBulkTag, bulkBoard, setBulkBoard, bulkFailure, moderate, tagSelected, moveSelected };
}

/** The bar over the request list: select all, how many are chosen, and the bulk changes to them. */
export function RequestBulkBar(props: {
  tab: "pending" | "all";
  requests: readonly AdminFeatureRequest[];
  selected: ReadonlySet<string>;
  onSelect: (selected: ReadonlySet<string>) => void;
  chosenCount: number;
  tags: readonly Tag[];
  boardChoices: readonly Choice[];
  bulk: ReturnType<typeof useRequestBulk>;
}) {
  const { requests, selected, tab, bulk } = props;
  const tagList = props.tags;
  const { bulkTag, bulkBoard } = bulk;
  const allSelected = requests.length > 0 && requests.every((r) => selected.has(r.id));
  const none = props.chosenCount === 0;
  return (
    <div className="bulk-bar" role="group" aria-label={t("requests.bulk")}>
      <label className="check">
        <input type="checkbox" checked={allSelected} onChange={() => props.onSelect(allSelected ? new Set() : new Set(requests.map((r) => r.id)))} /> {t("requests.selectAll")}
      </label>
      <span className="hint">{t("requests.selected", { count: props.chosenCount })}</span>
      {tab === "pending" ? (
        <>
          <button type="button" className="primary" disabled={none} onClick={() => void bulk.moderate("approve")}>
            {t("requests.approveSelected")}
          </button>
          <button type="button" disabled={none} onClick={() => void bulk.moderate("decline")}>
            {t("requests.declineSelected")}
          </button>
        </>
      ) : null}
      {tagList.length > 0 ? (
        <span className="bulk-group">
          <LabelledSelect label={t("requests.bulkTag")} value={bulkTag} choices={[{ value: "", label: "—" }, ...tagList.map((tag) => ({ value: tag.id, label: tag.name }))]} onChange={bulk.setBulkTag} />
          <button type="button" disabled={none || bulkTag === ""} onClick={() => void bulk.tagSelected("add")}>
            {t("requests.addTag")}
          </button>
          <button type="button" disabled={none || bulkTag === ""} onClick={() => void bulk.tagSelected("remove")}>
            {t("requests.removeTag")}
          </button>
        </span>
      ) : null}
      {props.boardChoices.length > 1 ? (
        <span className="bulk-group">
          <LabelledSelect label={t("requests.bulkBoard")} value={bulkBoard} choices={[{ value: "", label: "—" }, ...props.boardChoices]} onChange={bulk.setBulkBoard} />
          <button type="button" disabled={none || bulkBoard === ""} onClick={() => void bulk.moveSelected()}>
            {t("requests.moveSelected")}
          </button>
        </span>
      ) : null}
      <ErrorBanner error={bulk.bulkFailure} />
    </div>
  );
}
