import type { AppRecord, Membership, SessionState, Workspace } from "@tidings/protocol";
import { Select } from "./components/Select.js";
import { t } from "./i18n/t.js";
import { navigate, type parseRoute } from "./router.js";

/** The shell's top bar: the workspace and app pickers, who is signed in, and signing out. */
export function Topbar(props: {
  session: SessionState;
  route: ReturnType<typeof parseRoute>;
  /** Every workspace of the user, once loaded. */
  workspaces: { workspace: Workspace }[] | undefined;
  wsId: string | undefined;
  workspaceName: string | undefined;
  apps: readonly AppRecord[];
  appId: string | undefined;
  role: Membership["role"];
  onSignOut: () => void;
}) {
  return (
    <header className="topbar">
      <a className="brand" href="/admin/" onClick={(e) => (e.preventDefault(), navigate("/admin/"))}>
        {t("app.title")}
      </a>
      {props.workspaces !== undefined && props.workspaces.length > 1 ? (
        <label>
          <span className="visually-hidden">{t("nav.workspace")}</span>
          <Select value={props.wsId ?? ""} choices={props.workspaces.map((w) => ({ value: w.workspace.id, label: w.workspace.name }))} onChange={(id) => navigate(`/admin/w/${id}/apps`)} />
        </label>
      ) : (
        <span className="workspace-name">{props.workspaceName}</span>
      )}
      {props.apps.length > 0 ? (
        <label>
          <span className="visually-hidden">{t("nav.app")}</span>
          <Select
            value={props.appId ?? ""}
            choices={props.apps.map((a) => ({ value: a.appId, label: a.name }))}
            onChange={(id) => navigate(`/admin/w/${props.wsId}/a/${id}/${props.route.appId === undefined ? "requests" : props.route.section}`)}
          />
        </label>
      ) : null}
      <span className="user">
        {props.session.user?.displayName ?? props.session.user?.email} · {t(`role.${props.role}`)}
      </span>
      <button type="button" onClick={props.onSignOut}>
        {t("nav.signOut")}
      </button>
    </header>
  );
}
