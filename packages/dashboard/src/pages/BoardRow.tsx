import type { Board } from "@tidings/protocol";
import { api } from "../api.js";
import { describeAccess, formFromBoard } from "../board-form.js";
import type { Choice } from "../components/Select.js";
import { ConfirmButton, MoveButtons } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { BoardEditor } from "./BoardEditor.js";

/** One board's line: what it is and its actions, or its editor while it is being edited. */
export function BoardRow(props: {
  base: string;
  board: Board;
  index: number;
  count: number;
  editing: boolean;
  segments: readonly Choice[];
  segmentName: (id: string) => string;
  canConfigure: boolean;
  onEditing: (boardId: string | null) => void;
  onSaved: () => void;
  onReorder: (index: number, delta: number) => void;
  run: (work: () => Promise<unknown>, message?: string) => Promise<boolean>;
}) {
  const { board, index } = props;
  return (
    <li className="row" data-testid="board-row">
      {props.editing ? (
        <div className="row-main">
          <BoardEditor
            segments={props.segments}
            idPrefix={`board-${board.id}`}
            initial={formFromBoard(board)}
            submitLabel={t("common.save")}
            onCancel={() => props.onEditing(null)}
            onSubmit={async (body) => {
              await api("PATCH", `${props.base}/boards/${board.id}`, body);
              props.onEditing(null);
              props.onSaved();
            }}
          />
        </div>
      ) : (
        <>
          <div className="row-main">
            <strong>
              {board.name} {board.isDefault ? <span className="badge">{t("boards.default")}</span> : null}
            </strong>
            <small>
              <code>{board.slug}</code> · {describeAccess(board, props.segmentName)} · {t("boards.requests", { count: board.requestCount })}
            </small>
            {board.description === "" ? null : <p>{board.description}</p>}
          </div>
          {props.canConfigure ? (
            <div className="row-actions">
              <MoveButtons upLabel={t("boards.moveUp", { name: board.name })} downLabel={t("boards.moveDown", { name: board.name })} index={index} count={props.count} onMove={props.onReorder} />
              <button type="button" aria-label={t("boards.edit", { name: board.name })} onClick={() => props.onEditing(board.id)}>
                {t("common.edit")}
              </button>
              {board.isDefault ? null : (
                <>
                  <button type="button" onClick={() => void props.run(() => api("PATCH", `${props.base}/boards/${board.id}`, { isDefault: true }), t("common.saved"))}>
                    {t("boards.makeDefault")}
                  </button>
                  <ConfirmButton label={t("boards.delete", { name: board.name })} question={t("boards.confirmDelete", { name: board.name })} onConfirm={() => void props.run(() => api("DELETE", `${props.base}/boards/${board.id}`), t("boards.deleted"))}>
                    {t("common.delete")}
                  </ConfirmButton>
                </>
              )}
            </div>
          ) : null}
        </>
      )}
    </li>
  );
}
