import { type AdminFeatureRequest, type BoardColumn, textLength } from "@tidings/protocol";
import { useState, type DragEvent, type FormEvent } from "react";
import { api } from "../api.js";
import { Empty, ErrorBanner, Field, MoveButtons, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { t } from "../i18n/t.js";

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
  const setColor = (column: BoardColumn, color: string | null) => color !== column.color && void run(() => api("PUT", `${base}/columns/${column.id}`, { color }));
  const remove = (column: BoardColumn) => window.confirm(t("roadmap.confirmDelete", { name: column.name })) && void run(() => api("DELETE", `${base}/columns/${column.id}`));
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
  const onCardDrop = (event: DragEvent, columnId: string) => {
    const requestId = event.dataTransfer.getData("application/x-tidings-request");
    if (requestId !== "") moveRequest(requestId, columnId);
  };

  return (
    <section aria-labelledby="roadmap-title">
      <h1 id="roadmap-title">{t("roadmap.title")}</h1>
      <p className="hint">{t("roadmap.dragHint")}</p>
      <ErrorBanner error={columns.error ?? requests.error ?? failure} onRetry={() => (columns.reload(), requests.reload())} />
      <ol className="column-list">
        {list.map((column, index) => (
          <li
            key={column.id}
            className={dragColumn === column.id ? "column-row dragging" : "column-row"}
            draggable
            onDragStart={(e) => {
              setDragColumn(column.id);
              e.dataTransfer.setData("text/plain", column.id);
            }}
            onDragOver={(e) => dragColumn !== null && e.preventDefault()}
            onDrop={() => dropColumn(column.id)}
            data-testid={`column-${column.slug}`}
          >
            <span className="drag-handle" aria-hidden="true">⠿</span>
            <input
              aria-label={t("roadmap.columnName")}
              defaultValue={column.name}
              onBlur={(e) => e.target.value.trim() !== "" && e.target.value !== column.name && void run(() => api("PUT", `${base}/columns/${column.id}`, { name: e.target.value.trim() }))}
              onKeyDown={(e) => e.key === "Enter" && (e.target as HTMLInputElement).blur()}
            />
            {/* Saved when the picker is left (not on every step of a drag); re-created when the saved colour changes. */}
            <input
              key={column.color ?? "none"}
              type="color"
              aria-label={`${t("roadmap.color")} ${column.name}`}
              defaultValue={column.color ?? "#94a3b8"}
              onBlur={(e) => setColor(column, e.target.value.toLowerCase())}
            />
            <button type="button" aria-label={t("roadmap.resetColor", { name: column.name })} disabled={column.color === null} onClick={() => setColor(column, null)}>
              ↺
            </button>
            <label className="check">
              <input type="checkbox" checked={column.isVisible} onChange={(e) => void run(() => api("PUT", `${base}/columns/${column.id}`, { isVisible: e.target.checked }))} />{" "}
              {t("roadmap.visible")}
            </label>
            <MoveButtons upLabel={t("roadmap.moveLeft", { name: column.name })} downLabel={t("roadmap.moveRight", { name: column.name })} index={index} count={list.length} onMove={move} />
            {column.isSystem ? (
              <span className="badge">{t("roadmap.system")}</span>
            ) : (
              <button type="button" className="danger" aria-label={t("roadmap.delete", { name: column.name })} onClick={() => remove(column)}>
                {t("common.delete")}
              </button>
            )}
          </li>
        ))}
      </ol>
      <form className="inline-form" onSubmit={add} noValidate aria-label={t("roadmap.add")}>
        <Field id="new-column" label={t("roadmap.columnName")} errors={newError}>
          <input id="new-column" value={newName} onChange={(e) => setNewName(e.target.value)} />
        </Field>
        <button type="submit">{t("roadmap.add")}</button>
      </form>

      <h2>{t("roadmap.board")}</h2>
      <div className="board">
        {list.map((column) => {
          const cards = (requests.data?.requests ?? []).filter((r) => r.columnId === column.id);
          return (
            <section key={column.id} className="board-column" aria-label={column.name} onDragOver={(e) => e.preventDefault()} onDrop={(e) => onCardDrop(e, column.id)} data-testid={`board-${column.slug}`}>
              <h3>
                <span className="swatch" style={{ background: column.color ?? "#94a3b8" }} />
                {column.name} <span className="count">{cards.length}</span>
              </h3>
              {cards.length === 0 ? <Empty>{t("roadmap.emptyColumn")}</Empty> : null}
              {cards.map((card) => (
                <article key={card.id} className="board-card" draggable onDragStart={(e) => e.dataTransfer.setData("application/x-tidings-request", card.id)}>
                  <p>{card.title}</p>
                  <small>{t("requests.votes", { count: card.voteCount })}</small>
                  <select aria-label={`${t("requests.moveTo")}: ${card.title}`} value={column.id} onChange={(e) => moveRequest(card.id, e.target.value)}>
                    {list.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                </article>
              ))}
            </section>
          );
        })}
      </div>
    </section>
  );
}
