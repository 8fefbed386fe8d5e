import { useState } from "react";
import { api } from "../api.js";
import { DataTable } from "../components/DataTable.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { ListStatus } from "../components/ListStatus.js";
import { choices } from "../components/Select.js";
import { useSegmentChoices } from "../components/useSegments.js";
import { ErrorBanner, Pager, useLoad } from "../components/ui.js";
import { useOffset } from "../components/useOffset.js";
import { t } from "../i18n/t.js";
import { formatMoney } from "../money.js";
import { CompanyLink } from "./CompanyLink.js";

const PAGE = 25;
const SORTS = ["last_seen", "newest", "mrr"] as const;

interface EndUser {
  id: string;
  publicId: string;
  displayName: string | null;
  isPaying: boolean | null;
  plan: string | null;
  mrr: number | null;
  currency: string | null;
  company: { id: string; externalId: string; name: string | null } | null;
  voteCount: number;
  createdAt: string;
  lastSeenAt: string;
}

/** End users of an app with the attributes the host app reported, and their activity. */
export function EndUsers(props: { wsId: string; appId: string }) {
  const [sort, setSort] = useState<(typeof SORTS)[number]>("last_seen");
  const [payers, setPayers] = useState(false);
  const [segmentId, setSegmentId] = useState("");
  const segments = useSegmentChoices(props.wsId, props.appId, t("segments.anyone"));
  const { offset, setOffset, refilter } = useOffset();
  const list = useLoad(() => {
    const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset), sort });
    if (payers) params.set("payer", "only");
    if (segmentId !== "") params.set("segmentId", segmentId);
    return api<{ users: EndUser[]; total: number }>("GET", `/workspaces/${props.wsId}/apps/${props.appId}/end-users?${params.toString()}`);
  }, [props.wsId, props.appId, sort, payers, segmentId, offset]);
  const users = list.data?.users ?? [];
  const paying = (v: boolean | null) => (v === null ? t("common.unknown") : v ? t("common.yes") : t("common.no"));

  return (
    <section aria-labelledby="end-users-title">
      <h1 id="end-users-title">{t("endUsers.title")}</h1>
      <div className="filters">
        <LabelledSelect label={t("endUsers.sort")} value={sort} choices={choices(SORTS, (s) => t(`endUsers.sort.${s}`))} onChange={refilter((value) => setSort(value as (typeof SORTS)[number]))} />
        <label className="check">
          <input type="checkbox" checked={payers} onChange={(e) => refilter(setPayers)(e.target.checked)} /> {t("endUsers.payersOnly")}
        </label>
        {segments.segments.length === 0 ? null : <LabelledSelect label={t("segments.filter")} value={segmentId} choices={segments.choices} onChange={refilter(setSegmentId)} />}
      </div>
      <ErrorBanner error={list.error} onRetry={list.reload} />
      <ListStatus list={list} count={users.length} empty={t("endUsers.empty")} showLoading />
      {users.length === 0 ? null : (
        <DataTable columns={[t("endUsers.user"), t("detail.company"), t("endUsers.paying"), t("endUsers.plan"), t("endUsers.mrr"), t("endUsers.votes"), t("endUsers.lastSeen"), t("endUsers.firstSeen")]}>
          {users.map((u) => (
            <tr key={u.id}>
              <th scope="row">
                {u.displayName ?? ""} <code>{u.publicId}</code>
              </th>
              <td>{u.company === null ? "—" : <CompanyLink wsId={props.wsId} appId={props.appId} company={u.company} />}</td>
              <td>{paying(u.isPaying)}</td>
              <td>{u.plan ?? "—"}</td>
              <td>{formatMoney(u.mrr, u.currency)}</td>
              <td>{u.voteCount}</td>
              <td>{new Date(u.lastSeenAt).toLocaleString()}</td>
              <td>{new Date(u.createdAt).toLocaleDateString()}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager offset={offset} limit={PAGE} total={list.data?.total ?? 0} onChange={setOffset} />
    </section>
  );
}
