import type { AppRecord, Membership, SessionState, Workspace } from "@tidings/protocol";
import { useEffect } from "react";
import { api } from "./api.js";
import { ErrorBoundary } from "./components/ErrorBoundary.js";
import { ErrorBanner, useLoad } from "./components/ui.js";
import { CurrentPage } from "./CurrentPage.js";
import { t } from "./i18n/t.js";
import { navigate, parseRoute, usePath } from "./router.js";
import { Sidebar } from "./Sidebar.js";
import { Topbar } from "./Topbar.js";

interface Me {
  user: { id: string; email: string; displayName: string | null } | null;
  workspaces: { workspace: Workspace; membership: Membership | null }[];
}

/** The signed-in dashboard: navigation and the page of the current route. */
export function Shell(props: { session: SessionState; onSignOut: () => void }) {
  const path = usePath();
  const route = parseRoute(path);
  const me = useLoad(() => api<Me>("GET", "/me"), [props.session.user?.id]);
  const wsId = route.wsId ?? me.data?.workspaces[0]?.workspace.id;
  const apps = useLoad(() => (wsId === undefined ? Promise.resolve({ apps: [] as AppRecord[] }) : api<{ apps: AppRecord[] }>("GET", `/workspaces/${wsId}/apps`)), [wsId, path]);
  useEffect(() => {
    if (route.wsId === undefined && wsId !== undefined) navigate(`/admin/w/${wsId}/apps`);
  }, [route.wsId, wsId]);
  const entry = me.data?.workspaces.find((w) => w.workspace.id === wsId);
  const role = entry?.membership?.role ?? "owner";
  const manager = role === "owner" || role === "admin";
  const appId = route.appId ?? apps.data?.apps[0]?.appId;
  const appSection = (section: string) => (appId === undefined ? `/admin/w/${wsId}/apps` : `/admin/w/${wsId}/a/${appId}/${section}`);

  const onApps = wsId === undefined || route.section === "apps" || route.section === "";

  return (
    <div className="shell">
      <Topbar
        session={props.session}
        route={route}
        workspaces={me.data?.workspaces}
        wsId={wsId}
        workspaceName={entry?.workspace.name}
        apps={apps.data?.apps ?? []}
        appId={appId}
        role={role}
        onSignOut={props.onSignOut}
      />
      <Sidebar route={route} wsId={wsId} manager={manager} appSection={appSection} />
      <main className="content" id="content">
        <ErrorBanner error={me.error} onRetry={me.reload} />
        <ErrorBoundary resetKey={path} back={onApps ? undefined : { label: t("boundary.backToApps"), go: () => navigate(`/admin/w/${wsId}/apps`) }}>
          <CurrentPage route={route} wsId={wsId} workspace={entry?.workspace} role={role} manager={manager} />
        </ErrorBoundary>
      </main>
    </div>
  );
}
