import type { Board, Segment, SegmentDetail, SegmentMember, SegmentMembers } from "@tidings/protocol";
import { useState } from "react";
import { api, ApiFailure } from "../api.js";
import { DataTable } from "../components/DataTable.js";
import { ListStatus } from "../components/ListStatus.js";
import { useAction } from "../components/useAction.js";
import { ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { EMPTY_SEGMENT_FORM, formFromSegment, segmentUses } from "../segment-form.js";
import { formatMoney } from "./EndUsers.js";
import { SegmentEditor } from "./SegmentEditor.js";

const MEMBER_PAGE = 50;

/** The 409 of a delete as a sentence naming the boards and releases that still use the segment. */
async function inUseMessage(wsId: string, appId: string, details: unknown): Promise<string> {
  const uses = segmentUses(details);
  const [boards, releases] = await Promise.all([
    api<{ boards: Board[] }>("GET", `/workspaces/${wsId}/apps/${appId}/boards`).catch(() => ({ boards: [] })),
    api<{ entries: Array<{ id: string; title: string }> }>("GET", `/workspaces/${wsId}/changelog?appId=${appId}&limit=100&offset=0`).catch(() => ({ entries: [] })),
  ]);
  const name = (list: ReadonlyArray<{ id: string }>, label: (item: never) => string) => (id: string) => {
    const found = list.find((item) => item.id === id);
    return found === undefined ? id : `“${label(found as never)}”`;
  };
  const parts: string[] = [];
  if (uses.boards.length > 0) parts.push(t("segments.inUseBoards", { names: uses.boards.map(name(boards.boards, (b: Board) => b.name)).join(", ") }));
  if (uses.releases.length > 0) parts.push(t("segments.inUseReleases", { names: uses.releases.map(name(releases.entries, (r: { title: string }) => r.title)).join(", ") }));
  return t("segments.inUse", { uses: parts.join("; ") });
}

/** A segment's members, newest first, a page at a time. */
function MemberList(props: { wsId: string; segment: Segment }) {
  const [pages, setPages] = useState<SegmentMember[][]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const first = useLoad(async () => {
    const page = await api<SegmentMembers>("GET", `/workspaces/${props.wsId}/segments/${props.segment.id}/members?limit=${MEMBER_PAGE}`);
    setPages([page.members]);
    setCursor(page.nextCursor);
    return page;
  }, [props.wsId, props.segment.id]);
  const more = useAction(() => {});
  const members = pages.flat();
  const loadMore = (after: string) =>
    void more.run(async () => {
      const page = await api<SegmentMembers>("GET", `/workspaces/${props.wsId}/segments/${props.segment.id}/members?limit=${MEMBER_PAGE}&cursor=${encodeURIComponent(after)}`);
      setPages((old) => [...old, page.members]);
      setCursor(page.nextCursor);
    });
  return (
    <div aria-label={t("segments.membersOf", { name: props.segment.name })} role="region">
      <ErrorBanner error={first.error ?? more.failure} onRetry={first.reload} />
      <ListStatus list={first} count={members.length} empty={t("segments.noMembers")} showLoading />
      {members.length === 0 ? null : (
        <DataTable testId="segment-members" columns={[t("endUsers.user"), t("detail.company"), t("endUsers.plan"), t("endUsers.mrr")]}>
          {members.map((m) => (
            <tr key={m.id}>
              <th scope="row">
                {m.displayName ?? m.email ?? ""} <code>{m.publicId}</code>
              </th>
              <td>{m.company === null ? "—" : (m.company.name ?? m.company.externalId)}</td>
              <td>{m.plan ?? "—"}</td>
              <td>{formatMoney(m.mrr, m.currency)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {cursor === null ? null : (
        <button type="button" onClick={() => loadMore(cursor)}>
          {t("segments.more")}
        </button>
      )}
    </div>
  );
}

/** One segment's line: its member count, then edit, delete and its members. */
function SegmentRow(props: { wsId: string; appId: string; segment: Segment; canConfigure: boolean; onSaved: () => void; onDelete: () => void }) {
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
