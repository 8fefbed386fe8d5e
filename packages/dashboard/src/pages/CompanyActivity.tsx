import type { CompanyDetail } from "@tidings/protocol";
import { DataTable } from "../components/DataTable.js";
import { Empty } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { navigate } from "../router.js";

/** What the company's users did: their votes and comments (each linking to its request), and their feedback. */
export function CompanyActivity(props: { wsId: string; appId: string; detail: Pick<CompanyDetail, "votes" | "comments" | "feedback"> }) {
  const d = props.detail;
  const requestPath = (id: string) => `/admin/w/${props.wsId}/a/${props.appId}/requests/${id}`;
  const requestLink = (id: string, title: string) => (
    <a href={requestPath(id)} onClick={(e) => (e.preventDefault(), navigate(requestPath(id)))}>
      {title}
    </a>
  );
  return (
    <>
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
    </>
  );
}
