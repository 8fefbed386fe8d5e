import type { Board, CreateBoardBody } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { boardBody, describeAccess, EMPTY_BOARD_FORM, formFromBoard, validateBoard, type BoardForm, type PayingRule } from "../board-form.js";
import { ListStatus } from "../components/ListStatus.js";
import { choices, Select, type Choice } from "../components/Select.js";
import { useAction } from "../components/useAction.js";
import { formFields } from "../components/form-fields.js";
import { useEditorForm } from "../components/useEditorForm.js";
import { useSegmentChoices } from "../components/useSegments.js";
import { describedBy, ErrorBanner, Notice, type useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";

type BoardList = ReturnType<typeof useLoad<{ boards: Board[] }>>;

/** Where a refusal that names no body field belongs on the board form. */
const BOARD_ERROR_FIELDS = { slug_taken: "slug", default_board: "visibility", segment_not_found: "accessRule.segmentId" };

function BoardEditor(props: { idPrefix: string; segments: readonly Choice[]; initial: BoardForm; submitLabel: string; onSubmit: (body: CreateBoardBody) => Promise<void>; onCancel?: () => void }) {
  const { form, update, errors, failure, onSubmit } = useEditorForm({
    initial: props.initial,
    validate: validateBoard,
    save: (draft) => props.onSubmit(boardBody(draft)),
    byCode: BOARD_ERROR_FIELDS,
    reset: props.onCancel === undefined,
  });
  const { id, field } = formFields(props.idPrefix, errors);
  return (
    <form className="settings" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={props.submitLabel}>
      {field("name", "name", t("boards.name"), (errs) => (
        <input id={id("name")} value={form.name} onChange={(e) => update({ name: e.target.value })} {...describedBy(id("name"), errs)} />
      ))}
      {field("slug", "slug", t("boards.slug"), (errs) => <input id={id("slug")} value={form.slug} onChange={(e) => update({ slug: e.target.value })} {...describedBy(id("slug"), errs)} />, t("organize.slugHint"))}
      {field("description", "description", t("boards.description"), (errs) => (
        <textarea id={id("description")} rows={2} value={form.description} onChange={(e) => update({ description: e.target.value })} {...describedBy(id("description"), errs)} />
      ))}
      {field("visibility", "visibility", t("boards.visibility"), (errs) => (
        <Select
          id={id("visibility")}
          value={form.visibility}
          choices={choices(["public", "private"] as const, (v) => t(`boards.visibility.${v}`))}
          onChange={(visibility) => update({ visibility: visibility as BoardForm["visibility"] })}
          {...describedBy(id("visibility"), errs)}
        />
      ))}
      {form.visibility === "private" ? (
        <fieldset>
          <legend>{t("boards.access")}</legend>
          <p className="hint">{t("boards.accessHint")}</p>
          {field("plans", "accessRule.plans", t("boards.plans"), (errs) => <input id={id("plans")} value={form.plans} onChange={(e) => update({ plans: e.target.value })} {...describedBy(id("plans"), errs)} />, t("boards.plansHint"))}
          {field("paying", "accessRule.isPaying", t("boards.paying"), (errs) => (
            <Select
              id={id("paying")}
              value={form.paying}
              choices={choices(["any", "yes", "no"] as const, (v) => t(`boards.paying.${v}`))}
              onChange={(paying) => update({ paying: paying as PayingRule })}
              {...describedBy(id("paying"), errs)}
            />
          ))}
          {field("segment", "accessRule.segmentId", t("boards.segment"), (errs) => (
            <Select id={id("segment")} value={form.segmentId} choices={props.segments} onChange={(segmentId) => update({ segmentId })} {...describedBy(id("segment"), errs)} />
          ))}
        </fieldset>
      ) : null}
      <ErrorBanner error={failure} />
      <div className="inline-form">
        <button type="submit" className="primary">
          {props.submitLabel}
        </button>
        {props.onCancel === undefined ? null : (
          <button type="button" onClick={props.onCancel}>
            {t("common.cancel")}
          </button>
        )}
      </div>
    </form>
  );
}

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
          <li key={board.id} className="row" data-testid="board-row">
            {editing === board.id ? (
              <div className="row-main">
                <BoardEditor
                  segments={segments.choices}
                  idPrefix={`board-${board.id}`}
                  initial={formFromBoard(board)}
                  submitLabel={t("common.save")}
                  onCancel={() => setEditing(null)}
                  onSubmit={async (body) => {
                    await api("PATCH", `${base}/boards/${board.id}`, body);
                    setEditing(null);
                    saved();
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
                    <code>{board.slug}</code> · {describeAccess(board, segmentName)} · {t("boards.requests", { count: board.requestCount })}
                  </small>
                  {board.description === "" ? null : <p>{board.description}</p>}
                </div>
                {props.canConfigure ? (
                  <div className="row-actions">
                    <button type="button" aria-label={t("boards.moveUp", { name: board.name })} disabled={index === 0} onClick={() => reorder(index, -1)}>
                      ↑
                    </button>
                    <button type="button" aria-label={t("boards.moveDown", { name: board.name })} disabled={index === list.length - 1} onClick={() => reorder(index, 1)}>
                      ↓
                    </button>
                    <button type="button" aria-label={t("boards.edit", { name: board.name })} onClick={() => setEditing(board.id)}>
                      {t("common.edit")}
                    </button>
                    {board.isDefault ? null : (
                      <>
                        <button type="button" onClick={() => void action.run(() => api("PATCH", `${base}/boards/${board.id}`, { isDefault: true }), t("common.saved"))}>
                          {t("boards.makeDefault")}
                        </button>
                        <button
                          type="button"
                          className="danger"
                          aria-label={t("boards.delete", { name: board.name })}
                          onClick={() => {
                            if (window.confirm(t("boards.confirmDelete", { name: board.name }))) void action.run(() => api("DELETE", `${base}/boards/${board.id}`), t("boards.deleted"));
                          }}
                        >
                          {t("common.delete")}
                        </button>
                      </>
                    )}
                  </div>
                ) : null}
              </>
            )}
          </li>
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
