import { type AdminFeatureRequest, type BoardColumn, textLength } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import { ErrorBanner, Field, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { t } from "../i18n/t.js";
import { RoadmapBoard } from "./RoadmapBoard.js";
import { RoadmapColumnRow } from "./RoadmapColumnRow.js";

/** Columns of an app (add, rename, colour, hide, reorder, delete) and the board of its approved requests. */
export function Roadmap(props: { wsId: string; appId: string }) {
  const base = `/workspaces/${props.wsId}`;
  const columns = useLoad(() => api<{ columns: BoardColumn[] }>("GET", `${base}/apps/${props.appId}/columns`), [props.wsId, props.appId]);
  const requests = useLoad(
    () => api<{ requests: AdminFeatureRequest[]; total: number }>("GET", `${base}/feature-requests?appId=${props.appId}&moderation=approved&limit=200&sort=votes`),
    [props.wsId, props.appId],
  );
  const [newName, setNewName] = useState("");
  const [newError, setNewError] = useState<string[] | undefined>(undefined);
  const [dragColumn, setDragColumn] = useState<string | null>(null);
  const { failure, run } = useAction(() => (columns.reload(), requests.reload()));
  const list = columns.data?.columns ?? [];
  const reorder = (ids: string[]) => run(() => api("POST", `${base}/apps/${props.appId}/columns/reorder`, { columnIds: ids }));
  const move = (index: number, delta: number) => {
    const ids = list.map((c) => c.id);
    const target = index + delta;
    if (target < 0 || target >= ids.length) return;
    const [id] = ids.splice(index, 1);
    ids.splice(target, 0, id!);
    void reorder(ids);
  };
  const dropColumn = (targetId: string) => {
    if (dragColumn === null || dragColumn === targetId) return;
    const ids = list.map((c) => c.id).filter((id) => id !== dragColumn);
    ids.splice(ids.indexOf(targetId), 0, dragColumn);
    setDragColumn(null);
    void reorder(ids);
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (newName.trim() === "" || textLength(newName.trim()) > 60) {
      setNewError([t("validation.required")]);
      return;
    }
    setNewError(undefined);
    void run(() => api("POST", `${base}/apps/${props.appId}/columns`, { name: newName.trim() })).then(() => setNewName(""));
  };
  const moveRequest = (requestId: string, columnId: string) => void run(() => api("PUT", `${base}/feature-requests/${requestId}`, { columnId }));

  return (
    <section aria-labelledby="roadmap-title">
      <h1 id="roadmap-title">{t("roadmap.title")}</h1>
      <p className="hint">{t("roadmap.dragHint")}</p>
      <ErrorBanner error={columns.error ?? requests.error ?? failure} onRetry={() => (columns.reload(), requests.reload())} />
      <ol className="column-list">
        {list.map((column, index) => (
          <RoadmapColumnRow
            key={column.id}
            base={base}
            column={column}
            index={index}
            count={list.length}
            dragColumn={dragColumn}
            onDragColumn={setDragColumn}
            onDropColumn={dropColumn}
            onMove={move}
            run={run}
          />
        ))}
      </ol>
      <form className="inline-form" onSubmit={add} noValidate aria-label={t("roadmap.add")}>
        <Field id="new-column" label={t("roadmap.columnName")} errors={newError}>
          <input id="new-column" value={newName} onChange={(e) => setNewName(e.target.value)} />
        </Field>
        <button type="submit">{t("roadmap.add")}</button>
      </form>

      <h2>{t("roadmap.board")}</h2>
      <RoadmapBoard columns={list} requests={requests.data?.requests ?? []} onMoveRequest={moveRequest} />
    </section>
  );
}
