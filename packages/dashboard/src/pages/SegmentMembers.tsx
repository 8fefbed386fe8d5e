import type { Segment, SegmentMember, SegmentMembers } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { DataTable } from "../components/DataTable.js";
import { ListStatus } from "../components/ListStatus.js";
import { useAction } from "../components/useAction.js";
import { ErrorBanner, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { formatMoney } from "../money.js";

const MEMBER_PAGE = 50;

/** A segment's members, newest first, a page at a time. */
export function MemberList(props: { wsId: string; segment: Segment }) {
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
