import type { AdminFeatureRequest, RequestCompany } from "@tidings/protocol";
import { DataTable } from "../components/DataTable.js";
import { Empty } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { formatMoney, formatRevenue } from "../money.js";
import { CompanyLink } from "./CompanyLink.js";

/** The companies whose users voted for a request, with their revenue. */
export function RequestCompanies(props: { wsId: string; appId: string; companies: readonly RequestCompany[]; companyRevenue: AdminFeatureRequest["companyRevenue"]; companyCount: number }) {
  return (
    <>
      <h2>{t("detail.companies")}</h2>
      <p className="hint" data-testid="company-revenue">
        {t("detail.revenue")}: {formatRevenue(props.companyRevenue)} · {t("requests.companies", { count: props.companyCount })}
      </p>
      {props.companies.length === 0 ? (
        <Empty>{t("detail.noCompanies")}</Empty>
      ) : (
        <DataTable testId="request-companies" columns={[t("companies.company"), t("companies.mrr"), t("companies.plan"), t("detail.companyVoters")]}>
          {props.companies.map((c) => (
            <tr key={c.id}>
              <th scope="row">
                <CompanyLink wsId={props.wsId} appId={props.appId} company={c} />
              </th>
              <td>{formatMoney(c.mrr, c.currency)}</td>
              <td>{c.plan ?? "—"}</td>
              <td>{c.voters}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
