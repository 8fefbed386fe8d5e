import type { CompanyDetail } from "@tidings/protocol";
import { DataTable } from "../components/DataTable.js";
import { Empty } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { formatMoney } from "../money.js";

/** The company's users as the host reported them: paying, plan, revenue, last seen. */
export function CompanyUsers(props: { users: CompanyDetail["users"] }) {
  const { users } = props;
  return (
    <>
      <h2>{t("company.users")}</h2>
      {users.length === 0 ? (
        <Empty>{t("company.none")}</Empty>
      ) : (
        <DataTable testId="company-users" columns={[t("endUsers.user"), t("endUsers.paying"), t("endUsers.plan"), t("endUsers.mrr"), t("endUsers.lastSeen")]}>
          {users.map((u) => (
            <tr key={u.publicId}>
              <th scope="row">
                {u.displayName === null ? null : <>{u.displayName} </>}
                {u.email === null ? null : <>{u.email} </>}
                <code>{u.publicId}</code>
              </th>
              <td>{u.isPaying === null ? t("common.unknown") : u.isPaying ? t("common.yes") : t("common.no")}</td>
              <td>{u.plan ?? "—"}</td>
              <td>{formatMoney(u.mrr, u.currency)}</td>
              <td>{new Date(u.lastSeenAt).toLocaleString()}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
