import type { FeatureRequestVoter } from "@tidings/protocol";
import { DataTable } from "../components/DataTable.js";
import { Empty, Pager } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { formatMoney } from "../money.js";
import { CompanyLink } from "./CompanyLink.js";

const VOTERS_PAGE = 20;

/** Who voted for a request, a page at a time from `offset`, those the team added marked. */
export function RequestVoters(props: { wsId: string; appId: string; voters: readonly FeatureRequestVoter[]; offset: number; onOffset: (offset: number) => void }) {
  const { offset } = props;
  return (
    <>
      <h2>{t("detail.voters")}</h2>
      {props.voters.length === 0 ? (
        <Empty>{t("detail.noVoters")}</Empty>
      ) : (
        <DataTable testId="voters" columns={[t("endUsers.user"), t("detail.company"), t("endUsers.paying"), t("endUsers.plan"), t("endUsers.mrr"), t("detail.votedAt")]}>
          {props.voters.slice(offset, offset + VOTERS_PAGE).map((v) => (
            <tr key={v.publicId}>
              <th scope="row">
                {v.displayName === null ? null : <>{v.displayName} </>}
                <code>{v.publicId}</code>
                {v.addedByTeam ? (
                  <small className="muted" data-testid="added-by-team">
                    {" "}
                    · {t("detail.addedByTeam")}
                    {v.note === null ? "" : `: ${v.note}`}
                  </small>
                ) : null}
              </th>
              <td>{v.company === null ? "—" : <CompanyLink wsId={props.wsId} appId={props.appId} company={v.company} />}</td>
              <td>{v.isPaying ? t("common.yes") : t("common.no")}</td>
              <td>{v.plan ?? "—"}</td>
              <td>{formatMoney(v.mrr, v.currency)}</td>
              <td>{new Date(v.votedAt).toLocaleString()}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager offset={offset} limit={VOTERS_PAGE} total={props.voters.length} onChange={props.onOffset} />
    </>
  );
}
