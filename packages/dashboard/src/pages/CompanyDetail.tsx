import type { CompanyDetail as Detail } from "@tidings/protocol";
import { api } from "../api.js";
import { JsonValue } from "../components/JsonValue.js";
import { Empty, ErrorBanner, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { formatMoney } from "../money.js";
import { navigate } from "../router.js";
import { CompanyActivity } from "./CompanyActivity.js";
import { CompanyUsers } from "./CompanyUsers.js";

/** A company: what the host reported, its users, and their votes, comments and feedback. */
export function CompanyDetail(props: { wsId: string; appId: string; companyId: string }) {
  const detail = useLoad(() => api<Detail>("GET", `/workspaces/${props.wsId}/companies/${props.companyId}`), [props.wsId, props.companyId]);
  const listPath = `/admin/w/${props.wsId}/a/${props.appId}/companies`;
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

      <CompanyUsers users={d.users} />

      <CompanyActivity wsId={props.wsId} appId={props.appId} detail={d} />
    </section>
  );
}
