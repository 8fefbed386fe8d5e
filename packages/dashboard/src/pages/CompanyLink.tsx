import { navigate } from "../router.js";

/** The dashboard path of a company's page. */
export function companyPath(wsId: string, appId: string, companyId: string): string {
  return `/admin/w/${wsId}/a/${appId}/companies/${companyId}`;
}

/** A company's name (or the host's id when it reported none), linking to its page. */
export function CompanyLink(props: { wsId: string; appId: string; company: { id: string; externalId: string; name: string | null } }) {
  const href = companyPath(props.wsId, props.appId, props.company.id);
  return (
    <a href={href} onClick={(e) => (e.preventDefault(), navigate(href))}>
      {props.company.name ?? props.company.externalId}
    </a>
  );
}
