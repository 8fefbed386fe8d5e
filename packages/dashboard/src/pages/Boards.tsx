import type { Board } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { EMPTY_BOARD_FORM } from "../board-form.js";
import { ListStatus } from "../components/ListStatus.js";
import { useAction } from "../components/useAction.js";
import { useSegmentChoices } from "../components/useSegments.js";
import { ErrorBanner, Notice, type useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { BoardEditor } from "./BoardEditor.js";
import { BoardRow } from "./BoardRow.js";

type BoardList = ReturnType<typeof useLoad<{ boards: Board[] }>>;

/** An app's boards: add, edit (name, slug, description, visibility and access rule), reorder, make default, delete. */
export function BoardsSection(props: { wsId: string; appId: string; canConfigure: boolean; boards: BoardList }) {
  const base = `/workspaces/${props.wsId}`;
  const { boards } = props;
  const [editing, setEditing] = useState<string | null>(null);
  const action = useAction(boards.reload);
  const { failure, notice, setNotice } = action;
  const list = boards.data?.boards ?? [];
  const segments = useSegmentChoices(props.wsId, props.appId, t("segments.none"));
  const segmentName = (id: string) => segments.segments.find((s) => s.id === id)?.name ?? id;
  const reorder = (index: number, delta: number) => {
    const ids = list.map((b) => b.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + delta, 0, moved!);
    void action.run(() => api("POST", `${base}/apps/${props.appId}/boards/reorder`, { boardIds: ids }));
  };
  const saved = () => {
    setNotice(t("common.saved"));
    boards.reload();
  };

  return (
    <section aria-labelledby="boards-title">
      <h2 id="boards-title">{t("boards.title")}</h2>
      <p className="hint">{t("boards.intro")}</p>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={boards.error ?? failure} onRetry={boards.reload} />
      <ListStatus list={boards} count={list.length} empty={t("boards.empty")} showLoading />
      <ol className="rows" aria-label={t("boards.title")}>
        {list.map((board, index) => (
          <BoardRow
            key={board.id}
            base={base}
            board={board}
            index={index}
            count={list.length}
            editing={editing === board.id}
            segments={segments.choices}
            segmentName={segmentName}
            canConfigure={props.canConfigure}
            onEditing={setEditing}
            onSaved={saved}
            onReorder={reorder}
            run={action.run}
          />
        ))}
      </ol>
      {props.canConfigure ? (
        <>
          <h3>{t("boards.add")}</h3>
          <BoardEditor
            segments={segments.choices}
            idPrefix="new-board"
            initial={EMPTY_BOARD_FORM}
            submitLabel={t("boards.add")}
            onSubmit={async (body) => {
              await api("POST", `${base}/apps/${props.appId}/boards`, body);
              saved();
            }}
          />
        </>
      ) : null}
    </section>
  );
}
