import type { Segment } from "@tidings/protocol";
import { api, ApiFailure } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { useAction } from "../components/useAction.js";
import { ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { EMPTY_SEGMENT_FORM } from "../segment-form.js";
import { inUseMessage } from "../segment-in-use.js";
import { SegmentEditor } from "./SegmentEditor.js";
import { SegmentRow } from "./SegmentRow.js";

/** An app's segments: their member counts and members; add, change and delete them. */
export function Segments(props: { wsId: string; appId: string; canConfigure: boolean }) {
  const base = `/workspaces/${props.wsId}`;
  const segments = useLoad(() => api<{ segments: Segment[] }>("GET", `${base}/apps/${props.appId}/segments`), [props.wsId, props.appId]);
  const action = useAction(segments.reload);
  const { failure, notice, setNotice } = action;
  const list = segments.data?.segments ?? [];
  const saved = () => {
    setNotice(t("common.saved"));
    segments.reload();
  };
  const remove = (segment: Segment) => {
    if (!window.confirm(t("segments.confirmDelete", { name: segment.name }))) return;
    void action.run(async () => {
      try {
        await api("DELETE", `${base}/segments/${segment.id}`);
      } catch (error) {
        if (!(error instanceof ApiFailure) || error.code !== "segment_in_use") throw error;
        throw new ApiFailure(error.status, error.code, await inUseMessage(props.wsId, props.appId, error.details), {}, error.details);
      }
    }, t("segments.deleted"));
  };

  return (
    <section aria-labelledby="segments-title">
      <h1 id="segments-title">{t("segments.title")}</h1>
      <p className="hint">{t("segments.intro")}</p>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={segments.error ?? failure} onRetry={segments.reload} />
      <ListStatus list={segments} count={list.length} empty={t("segments.empty")} showLoading />
      <ul className="rows" aria-label={t("segments.title")}>
        {list.map((segment) => (
          <li key={segment.id} className="row" data-testid="segment-row">
            <SegmentRow wsId={props.wsId} appId={props.appId} segment={segment} canConfigure={props.canConfigure} onSaved={saved} onDelete={() => remove(segment)} />
          </li>
        ))}
      </ul>
      {props.canConfigure ? (
        <>
          <h2>{t("segments.add")}</h2>
          <SegmentEditor
            idPrefix="new-segment"
            initial={EMPTY_SEGMENT_FORM}
            submitLabel={t("segments.add")}
            onSubmit={async (body) => {
              await api("POST", `${base}/apps/${props.appId}/segments`, body);
              saved();
            }}
          />
        </>
      ) : null}
    </section>
  );
}
