import type { BoardColumn } from "@tidings/protocol";
import { api } from "../api.js";
import { MoveButtons } from "../components/ui.js";
import { t } from "../i18n/t.js";

/** One roadmap column's line: dragged to reorder, renamed, coloured, shown or hidden, moved, deleted. */
export function RoadmapColumnRow(props: {
  base: string;
  column: BoardColumn;
  index: number;
  count: number;
  /** The column being dragged, if any. */
  dragColumn: string | null;
  onDragColumn: (columnId: string) => void;
  onDropColumn: (targetId: string) => void;
  onMove: (index: number, delta: number) => void;
  run: (work: () => Promise<unknown>, message?: string) => Promise<boolean>;
}) {
  const { base, column, dragColumn, run } = props;
  const setColor = (color: string | null) => color !== column.color && void run(() => api("PUT", `${base}/columns/${column.id}`, { color }));
  const remove = () => window.confirm(t("roadmap.confirmDelete", { name: column.name })) && void run(() => api("DELETE", `${base}/columns/${column.id}`));
  return (
    <li
      className={dragColumn === column.id ? "column-row dragging" : "column-row"}
      draggable
      onDragStart={(e) => {
        props.onDragColumn(column.id);
        e.dataTransfer.setData("text/plain", column.id);
      }}
      onDragOver={(e) => dragColumn !== null && e.preventDefault()}
      onDrop={() => props.onDropColumn(column.id)}
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
        onBlur={(e) => setColor(e.target.value.toLowerCase())}
      />
      <button type="button" aria-label={t("roadmap.resetColor", { name: column.name })} disabled={column.color === null} onClick={() => setColor(null)}>
        ↺
      </button>
      <label className="check">
        <input type="checkbox" checked={column.isVisible} onChange={(e) => void run(() => api("PUT", `${base}/columns/${column.id}`, { isVisible: e.target.checked }))} />{" "}
        {t("roadmap.visible")}
      </label>
      <MoveButtons upLabel={t("roadmap.moveLeft", { name: column.name })} downLabel={t("roadmap.moveRight", { name: column.name })} index={props.index} count={props.count} onMove={props.onMove} />
      {column.isSystem ? (
        <span className="badge">{t("roadmap.system")}</span>
      ) : (
        <button type="button" className="danger" aria-label={t("roadmap.delete", { name: column.name })} onClick={() => remove()}>
          {t("common.delete")}
        </button>
      )}
    </li>
  );
}
