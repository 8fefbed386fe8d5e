import type { Invitation, Membership } from "@tidings/protocol";
import { api } from "../api.js";
import { ErrorBanner, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { Invitations } from "./Invitations.js";

/** Members of the workspace, invitations by link, and pending invitations. */
export function Members(props: { wsId: string; canManage: boolean; isOwner: boolean }) {
  const base = `/workspaces/${props.wsId}`;
  const members = useLoad(() => api<{ members: Membership[] }>("GET", `${base}/members`), [props.wsId]);
  const invitations = useLoad(
    () => (props.canManage ? api<{ invitations: Invitation[] }>("GET", `${base}/invitations`) : Promise.resolve({ invitations: [] })),
    [props.wsId, props.canManage],
  );
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">{t("members.title")}</h1>
      <ErrorBanner error={members.error ?? invitations.error} onRetry={() => (members.reload(), invitations.reload())} />
      <ul className="rows">
        {(members.data?.members ?? []).map((m) => (
          <li key={m.id} className="row">
            <div className="row-main">
              <strong>{m.displayName ?? m.email}</strong>
              <small>
                {m.email} · {t(`role.${m.role}`)}
              </small>
            </div>
          </li>
        ))}
      </ul>
      {props.canManage ? <Invitations wsId={props.wsId} isOwner={props.isOwner} invitations={invitations} /> : null}
    </section>
  );
}
