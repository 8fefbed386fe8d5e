import type { CompanyDetail as Detail } from "@tidings/protocol";
import { api } from "../api.js";
import { DataTable } from "../components/DataTable.js";
import { JsonValue } from "../components/JsonValue.js";
import { Empty, ErrorBanner, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { navigate } from "../router.js";
import { formatMoney } from "./EndUsers.js";

/** A company: what the host reported, its users, and their votes, comments and feedback. */
export function CompanyDetail(props: { wsId: string; appId: string; companyId: string }) {
  const detail = useLoad(() => api<Detail>("GET", `/workspaces/${props.wsId}/companies/${props.companyId}`), [props.wsId, props.companyId]);
  const listPath = `/admin/w/${props.wsId}/a/${props.appId}/companies`;
  const requestPath = (id: string) => `/admin/w/${props.wsId}/a/${props.appId}/requests/${id}`;
  const requestLink = (id: string, title: string) => (
    <a href={requestPath(id)} onClick={(e) => (e.preventDefault(), navigate(requestPath(id)))}>
      {title}
    </a>
  );
  const back = (
    <a href={listPath} onClick={(e) => (e.preventDefault(), navigate(listPath))}>
      ← {t("common.back")}
    </a>
  );
  const d = detail.data;
  if (d === undefined) {
    return (
      <section>
        {back}
        <ErrorBanner error={detail.error} onRetry={detail.reload} />
        {detail.loading ? <p>{t("common.loading")}</p> : null}
      </section>
    );
  }
  const c = d.company;
  const attributes = Object.entries(c.attributes);

  return (
    <section aria-labelledby="company-title">
      {back}
      <h1 id="company-title">{c.name ?? c.externalId}</h1>
      <p className="hint" data-testid="company-summary">
        {formatMoney(c.mrr, c.currency)} · {c.plan ?? "—"} · {t("company.hostId", { id: c.externalId })}
      </p>

      <h2>{t("company.attributes")}</h2>
      {attributes.length === 0 ? (
        <Empty>{t("company.noAttributes")}</Empty>
      ) : (
        <dl className="metadata" data-testid="company-attributes">
          {attributes.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>
                <JsonValue value={value} />
              </dd>
            </div>
          ))}
        </dl>
      )}

      <h2>{t("company.users")}</h2>
      {d.users.length === 0 ? (
        <Empty>{t("company.none")}</Empty>
      ) : (
        <DataTable testId="company-users" columns={[t("endUsers.user"), t("endUsers.paying"), t("endUsers.plan"), t("endUsers.mrr"), t("endUsers.lastSeen")]}>
          {d.users.map((u) => (
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

      <h2>{t("company.votes")}</h2>
      {d.votes.length === 0 ? (
        <Empty>{t("company.none")}</Empty>
      ) : (
        <DataTable testId="company-votes" columns={[t("company.request"), t("company.user"), t("company.when")]}>
          {d.votes.map((v) => (
            <tr key={`${v.featureRequestId}:${v.userPublicId}`}>
              <th scope="row">{requestLink(v.featureRequestId, v.title)}</th>
              <td>
                <code>{v.userPublicId}</code>
              </td>
              <td>{new Date(v.votedAt).toLocaleString()}</td>
            </tr>
          ))}
        </DataTable>
      )}

      <h2>{t("company.comments")}</h2>
      {d.comments.length === 0 ? (
        <Empty>{t("company.none")}</Empty>
      ) : (
        <ul className="rows" data-testid="company-comments">
          {d.comments.map((cm) => (
            <li key={cm.id} className="row">
              <div className="row-main">
                <small>
                  {requestLink(cm.featureRequestId, cm.title)} · <code>{cm.userPublicId}</code> · {new Date(cm.createdAt).toLocaleString()}
                  {cm.hidden ? ` · ${t("detail.hidden")}` : ""}
                </small>
                <p>{cm.body}</p>
              </div>
            </li>
          ))}
        </ul>
      )}

      <h2>{t("company.feedback")}</h2>
      {d.feedback.length === 0 ? (
        <Empty>{t("company.none")}</Empty>
      ) : (
        <DataTable testId="company-feedback" columns={[t("company.request"), t("company.user"), t("company.status"), t("company.when")]}>
          {d.feedback.map((f) => (
            <tr key={f.id}>
              <th scope="row">{f.title}</th>
              <td>
                <code>{f.userPublicId}</code>
              </td>
              <td>{f.triageStatus}</td>
              <td>{new Date(f.createdAt).toLocaleString()}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
