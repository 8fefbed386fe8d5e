import type { AppRecord, Membership, SessionState, Workspace } from "@tidings/protocol";
import { useCallback, useEffect, useState, type MouseEvent } from "react";
import { api, onSessionLost, setCsrfToken } from "./api.js";
import { ErrorBoundary } from "./components/ErrorBoundary.js";
import { Select } from "./components/Select.js";
import { ErrorBanner, useLoad } from "./components/ui.js";
import { t } from "./i18n/t.js";
import { AcceptInvite, Setup, SignIn } from "./pages/Auth.js";
import { Apps } from "./pages/Apps.js";
import { AppSettings } from "./pages/AppSettings.js";
import { Changelog } from "./pages/Changelog.js";
import { DataTransfer } from "./pages/DataTransfer.js";
import { Duplicates } from "./pages/Duplicates.js";
import { EndUsers } from "./pages/EndUsers.js";
import { Companies } from "./pages/Companies.js";
import { Segments } from "./pages/Segments.js";
import { CompanyDetail } from "./pages/CompanyDetail.js";
import { Feedback } from "./pages/Feedback.js";
import { Integrations } from "./pages/Integrations.js";
import { Members } from "./pages/Members.js";
import { Organize } from "./pages/Organize.js";
import { RequestDetail } from "./pages/RequestDetail.js";
import { Requests } from "./pages/Requests.js";
import { Roadmap } from "./pages/Roadmap.js";
import { Subscribers } from "./pages/Subscribers.js";
import { Webhooks } from "./pages/Webhooks.js";
import { Tokens } from "./pages/Tokens.js";
import { Usage } from "./pages/Usage.js";
import { Versions } from "./pages/Versions.js";
import { navigate, parseRoute, usePath } from "./router.js";

interface Me {
  user: { id: string; email: string; displayName: string | null } | null;
  workspaces: { workspace: Workspace; membership: Membership | null }[];
}

function NavLink(props: { href: string; current: boolean; children: string }) {
  const go = (event: MouseEvent) => {
    event.preventDefault();
    navigate(props.href);
  };
  return (
    <a href={props.href} onClick={go} aria-current={props.current ? "page" : undefined}>
      {props.children}
    </a>
  );
}

/** The signed-in dashboard: navigation and the page of the current route. */
function Shell(props: { session: SessionState; onSignOut: () => void }) {
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
  let page = <p>{t("common.loading")}</p>;
  if (wsId !== undefined) {
    if (route.appId !== undefined && route.section === "settings") page = <AppSettings key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
    else if (route.appId !== undefined && route.section === "roadmap") page = <Roadmap key={route.appId} wsId={wsId} appId={route.appId} />;
    else if (route.appId !== undefined && route.section === "requests" && route.itemId !== undefined) {
      page = <RequestDetail key={route.itemId} wsId={wsId} appId={route.appId} requestId={route.itemId} canDelete={manager} />;
    } else if (route.appId !== undefined && route.section === "versions") page = <Versions key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
    else if (route.appId !== undefined && route.section === "organize") page = <Organize key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
    else if (route.appId !== undefined && route.section === "subscribers") page = <Subscribers key={route.appId} wsId={wsId} appId={route.appId} />;
    else if (route.appId !== undefined && route.section === "integrations") page = <Integrations key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
    else if (route.appId !== undefined && route.section === "webhooks") page = <Webhooks key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
    else if (route.appId !== undefined && route.section === "users") page = <EndUsers key={route.appId} wsId={wsId} appId={route.appId} />;
    else if (route.appId !== undefined && route.section === "companies" && route.itemId !== undefined) {
      page = <CompanyDetail key={route.itemId} wsId={wsId} appId={route.appId} companyId={route.itemId} />;
    } else if (route.appId !== undefined && route.section === "companies") page = <Companies key={route.appId} wsId={wsId} appId={route.appId} />;
    else if (route.appId !== undefined && route.section === "segments") page = <Segments key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
    else if (route.section === "usage") page = <Usage wsId={wsId} />;
    else if (route.section === "data") page = <DataTransfer wsId={wsId} canConfigure={manager} />;
    else if (route.section === "tokens") page = <Tokens workspace={entry?.workspace} />;
    else if (route.appId !== undefined && route.section === "requests") page = <Requests key={route.appId} wsId={wsId} appId={route.appId} />;
    else if (route.appId !== undefined && route.section === "duplicates") page = <Duplicates key={route.appId} wsId={wsId} appId={route.appId} />;
    else if (route.appId !== undefined && route.section === "changelog") page = <Changelog key={route.appId} wsId={wsId} appId={route.appId} />;
    else if (route.section === "feedback") page = <Feedback wsId={wsId} />;
    else if (route.section === "members") page = <Members wsId={wsId} canManage={manager} isOwner={role === "owner"} />;
    else page = <Apps wsId={wsId} canConfigure={manager} />;
  }

  return (
    <div className="shell">
      <header className="topbar">
        <a className="brand" href="/admin/" onClick={(e) => (e.preventDefault(), navigate("/admin/"))}>
          {t("app.title")}
        </a>
        {me.data !== undefined && me.data.workspaces.length > 1 ? (
          <label>
            <span className="visually-hidden">{t("nav.workspace")}</span>
            <Select value={wsId ?? ""} choices={me.data.workspaces.map((w) => ({ value: w.workspace.id, label: w.workspace.name }))} onChange={(id) => navigate(`/admin/w/${id}/apps`)} />
          </label>
        ) : (
          <span className="workspace-name">{entry?.workspace.name}</span>
        )}
        {(apps.data?.apps.length ?? 0) > 0 ? (
          <label>
            <span className="visually-hidden">{t("nav.app")}</span>
            <Select
              value={appId ?? ""}
              choices={(apps.data?.apps ?? []).map((a) => ({ value: a.appId, label: a.name }))}
              onChange={(id) => navigate(`/admin/w/${wsId}/a/${id}/${route.appId === undefined ? "requests" : route.section}`)}
            />
          </label>
        ) : null}
        <span className="user">
          {props.session.user?.displayName ?? props.session.user?.email} · {t(`role.${role}`)}
        </span>
        <button type="button" onClick={props.onSignOut}>
          {t("nav.signOut")}
        </button>
      </header>
      <nav className="sidebar" aria-label="Main">
        <NavLink href={`/admin/w/${wsId}/apps`} current={route.section === "apps" || (route.appId !== undefined && route.section === "settings")}>
          {t("nav.apps")}
        </NavLink>
        <NavLink href={appSection("requests")} current={route.section === "requests"}>
          {t("nav.requests")}
        </NavLink>
        <NavLink href={appSection("duplicates")} current={route.section === "duplicates"}>
          {t("nav.duplicates")}
        </NavLink>
        <NavLink href={appSection("roadmap")} current={route.section === "roadmap"}>
          {t("nav.roadmap")}
        </NavLink>
        <NavLink href={appSection("changelog")} current={route.section === "changelog"}>
          {t("nav.changelog")}
        </NavLink>
        <NavLink href={appSection("versions")} current={route.section === "versions"}>
          {t("nav.versions")}
        </NavLink>
        <NavLink href={appSection("organize")} current={route.section === "organize"}>
          {t("nav.organize")}
        </NavLink>
        <NavLink href={appSection("subscribers")} current={route.section === "subscribers"}>
          {t("nav.subscribers")}
        </NavLink>
        <NavLink href={appSection("users")} current={route.section === "users"}>
          {t("nav.endUsers")}
        </NavLink>
        <NavLink href={appSection("companies")} current={route.section === "companies"}>
          {t("nav.companies")}
        </NavLink>
        <NavLink href={appSection("segments")} current={route.section === "segments"}>
          {t("nav.segments")}
        </NavLink>
        {manager ? (
          <NavLink href={appSection("webhooks")} current={route.section === "webhooks"}>
            {t("nav.webhooks")}
          </NavLink>
        ) : null}
        <NavLink href={appSection("integrations")} current={route.section === "integrations"}>
          {t("nav.integrations")}
        </NavLink>
        <NavLink href={`/admin/w/${wsId}/feedback`} current={route.section === "feedback"}>
          {t("nav.feedback")}
        </NavLink>
        <NavLink href={`/admin/w/${wsId}/members`} current={route.section === "members"}>
          {t("nav.members")}
        </NavLink>
        <NavLink href={`/admin/w/${wsId}/usage`} current={route.section === "usage"}>
          {t("nav.usage")}
        </NavLink>
        <NavLink href={`/admin/w/${wsId}/data`} current={route.section === "data"}>
          {t("nav.data")}
        </NavLink>
        <NavLink href={`/admin/w/${wsId}/tokens`} current={route.section === "tokens"}>
          {t("nav.tokens")}
        </NavLink>
      </nav>
      <main className="content" id="content">
        <ErrorBanner error={me.error} onRetry={me.reload} />
        <ErrorBoundary resetKey={path} back={onApps ? undefined : { label: t("boundary.backToApps"), go: () => navigate(`/admin/w/${wsId}/apps`) }}>
          {page}
        </ErrorBoundary>
      </main>
    </div>
  );
}

/** The dashboard: session state decides between setup, sign-in, invitation and the signed-in shell. */
export function App() {
  const path = usePath();
  const [session, setSession] = useState<SessionState | null>(null);
  const [bootError, setBootError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const accept = useCallback((state: SessionState) => {
    setCsrfToken(state.csrfToken);
    setNotice(undefined);
    setSession(state);
    if (state.user !== null && window.location.pathname.startsWith("/admin/accept-invite")) navigate("/admin/");
  }, []);
  const load = useCallback(() => {
    setBootError(null);
    api<SessionState>("GET", "/auth/session").then(accept, setBootError);
  }, [accept]);
  useEffect(() => {
    // A lost session returns to sign-in on the same page, so signing in again carries on where the user was.
    onSessionLost(() => {
      setCsrfToken(null);
      setNotice(t("auth.sessionEnded"));
      setSession((s) => (s === null ? s : { ...s, user: null, csrfToken: null }));
    });
    load();
  }, [load]);

  if (session === null) {
    return bootError === null ? <p className="boot">{t("common.loading")}</p> : <main className="auth"><ErrorBanner error={bootError} onRetry={load} /></main>;
  }
  if (session.user === null) {
    if (path.startsWith("/admin/accept-invite")) return <AcceptInvite onDone={accept} />;
    if (session.setupRequired) return <Setup onDone={accept} />;
    return <SignIn onDone={accept} notice={notice} />;
  }
  const signOut = () => {
    void api("POST", "/auth/logout").finally(() => {
      setCsrfToken(null);
      setSession({ ...session, user: null, csrfToken: null });
    });
  };
  return <Shell session={session} onSignOut={signOut} />;
}
