import type { MouseEvent } from "react";
import { t } from "./i18n/t.js";
import { navigate, type parseRoute } from "./router.js";

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

/** The shell's main navigation: the app's sections (`appSection` makes their paths) and the workspace's. */
export function Sidebar(props: { route: ReturnType<typeof parseRoute>; wsId: string | undefined; manager: boolean; appSection: (section: string) => string }) {
  const { route, wsId, appSection } = props;
  return (
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
      {props.manager ? (
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
  );
}
