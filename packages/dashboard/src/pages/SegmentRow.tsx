import type { Segment, SegmentDetail } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { formFromSegment } from "../segment-form.js";
import { SegmentEditor } from "./SegmentEditor.js";
import { MemberList } from "./SegmentMembers.js";

/** One segment's line: its member count, then edit, delete and its members. */
export function SegmentRow(props: { wsId: string; appId: string; segment: Segment; canConfigure: boolean; onSaved: () => void; onDelete: () => void }) {
  const { segment } = props;
  const detail = useLoad(() => api<SegmentDetail>("GET", `/workspaces/${props.wsId}/segments/${segment.id}`), [props.wsId, segment.id, segment.updatedAt]);
  const [editing, setEditing] = useState(false);
  const [showMembers, setShowMembers] = useState(false);
  if (editing) {
    return (
      <div className="row-main">
        <SegmentEditor
          idPrefix={`segment-${segment.id}`}
          initial={formFromSegment(segment)}
          submitLabel={t("common.save")}
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            await api("PATCH", `/workspaces/${props.wsId}/segments/${segment.id}`, body);
            setEditing(false);
            props.onSaved();
          }}
        />
      </div>
    );
  }
  return (
    <>
      <div className="row-main">
        <strong>{segment.name}</strong>
        <small data-testid="segment-count">{detail.data === undefined ? t("common.loading") : t("segments.members", { count: detail.data.memberCount })}</small>
        {showMembers ? <MemberList wsId={props.wsId} segment={segment} /> : null}
      </div>
      <div className="row-actions">
        <button type="button" aria-expanded={showMembers} aria-label={t("segments.showMembers", { name: segment.name })} onClick={() => setShowMembers(!showMembers)}>
          {showMembers ? t("segments.hideMembers") : t("segments.showMembers", { name: segment.name })}
        </button>
        {props.canConfigure ? (
          <>
            <button type="button" aria-label={t("segments.edit", { name: segment.name })} onClick={() => setEditing(true)}>
              {t("common.edit")}
            </button>
            <button type="button" className="danger" aria-label={t("segments.delete", { name: segment.name })} onClick={props.onDelete}>
              {t("common.delete")}
            </button>
          </>
        ) : null}
      </div>
    </>
  );
}
