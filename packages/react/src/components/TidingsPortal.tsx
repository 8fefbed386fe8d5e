import { type FeatureRequestItem, type PortalRoute, type ThemeName } from "@tidings/client";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { useTidings } from "@tidings/react-core";
import { ChangelogOverlay } from "./ChangelogOverlay.js";
import { TABS, tabOf, type PortalTab } from "./portal-tabs.js";
import { PortalPickers } from "./PortalPickers.js";
import { FeatureRequestList } from "./FeatureRequestList.js";
import { FeedbackComposer } from "./FeedbackComposer.js";
import { RoadmapBoard } from "./RoadmapBoard.js";
import { ErrorState } from "./States.js";
import { TidingsScreen } from "./TidingsScreen.js";
import { UserProfile } from "./UserProfile.js";
import { WhatsNew } from "./WhatsNew.js";

/** Props of {@link TidingsPortal}. */
export interface TidingsPortalProps {
  /** The first section shown. @default the first enabled of roadmap, requests, changelog, feedback */
  initialTab?: PortalTab | undefined;
  /** Called when the user picks a section (e.g. to keep it in the URL). */
  onTabChange?: ((tab: PortalTab) => void) | undefined;
  /**
   * The screen shown, e.g. parsed from the address (`parsePortalPath`); with it the portal follows
   * the caller, who updates it from `onNavigate`. Without it the portal keeps its own.
   */
  route?: PortalRoute | undefined;
  /** Called when the user moves to another screen; `title` names a request for its address's slug. */
  onNavigate?: ((route: PortalRoute, title?: string) => void) | undefined;
  /** The Back links of a request and a profile; without it they show the list. */
  onBack?: (() => void) | undefined;
  /** Shows a theme picker calling this. */
  onThemeChange?: ((theme: ThemeName) => void) | undefined;
  /** Shows a language picker calling this. */
  onLocaleChange?: ((locale: string) => void) | undefined;
  /**
   * The board and tags the requests list shows, when the page draws its own board and tag
   * filters (the portal's links): the list's own switcher and tag filter are then hidden.
   * @default the list's own switcher and filter
   */
  requestFilters?: { board?: string | undefined; tags?: readonly string[] | undefined } | undefined;
  /** Show the changelog overlay once per release. @default true */
  showOverlay?: boolean | undefined;
  /** Compact header for the embedded widget. @default false */
  embedded?: boolean | undefined;
  /**
   * Where the "Powered by Tidings" footer links (shown unless the app's `hideSiteBranding`);
   * without it the footer is plain text.
   */
  brandingHref?: string | undefined;
}

/**
 * The whole public portal in one component: the app's branding, a tab per enabled surface
 * (roadmap, requests, what's new, feedback), theme and language pickers, and the changelog overlay.
 *
 * @example
 * ```tsx
 * <TidingsProvider client={client}><TidingsPortal /></TidingsProvider>
 * ```
 */
export function TidingsPortal(props: TidingsPortalProps) {
  const { t, config, configError, refreshConfig, isEnabled, errorMessage } = useTidings();
  const tabs = TABS.filter((tab) => isEnabled(tab.surface));
  const [ownRoute, setOwnRoute] = useState<PortalRoute>(props.initialTab === undefined ? { screen: "home" } : { screen: props.initialTab });
  const route = props.route ?? ownRoute;
  // A profile keeps the section and request it was opened from, so Back returns to them
  // (remembered from the screens shown, whoever changed them: a click or the browser's history).
  const behind = useRef<{ tab: PortalTab | undefined; request: string | null }>({ tab: props.initialTab, request: null });
  if (route.screen !== "profile") behind.current = { tab: tabOf(route), request: route.screen === "request" ? route.id : null };
  const lastRequest = behind.current.request;
  const [profileName, setProfileName] = useState<string | undefined>(undefined);
  const chosen = route.screen === "profile" ? (behind.current.tab ?? "requests") : tabOf(route);
  const profileId = route.screen === "profile" ? route.userId : null;
  const active = tabs.find((tab) => tab.id === chosen) ?? tabs[0];
  const base = useId();
  const navigate = (next: PortalRoute, title?: string) => {
    setOwnRoute(next);
    props.onNavigate?.(next, title);
  };
  const select = (tab: PortalTab) => {
    navigate({ screen: tab });
    props.onTabChange?.(tab);
  };
  const openProfile = (id: string, name?: string) => {
    setProfileName(name);
    navigate({ screen: "profile", userId: id });
  };
  const back = () => (props.onBack ? props.onBack() : navigate({ screen: "requests" }));
  const openRequest = (item: FeatureRequestItem | null) =>
    item === null ? back() : navigate({ screen: "request", id: item.id }, item.title);
  const onKey = (event: KeyboardEvent, index: number) => {
    const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    const next = tabs[(index + delta + tabs.length) % tabs.length];
    if (delta === 0 || next === undefined) return;
    event.preventDefault();
    select(next.id);
    document.getElementById(`${base}-${next.id}`)?.focus();
  };
  const icon = typeof config?.iconUrl === "string" && config.iconUrl.startsWith("https://") ? config.iconUrl : undefined;
  return (
    <TidingsScreen as="div" className={`td-portal${props.embedded ? " td-embedded" : ""}`}>
      <header className="td-portal-header">
        <div className="td-brand">
          {icon ? <img src={icon} alt="" className="td-app-icon" /> : null}
          <h1>{config?.name ?? ""}</h1>
        </div>
        <PortalPickers onThemeChange={props.onThemeChange} onLocaleChange={props.onLocaleChange} />
      </header>
      {configError !== undefined ? <ErrorState message={`${t("common.configError")} ${errorMessage(configError)}`} onRetry={() => void refreshConfig()} /> : null}
      {/* The tab list inside a navigation landmark, and the panel inside the main one: a role on
          <nav> or <main> itself would replace the landmark (axe: landmark-one-main, region). */}
      <nav aria-label={t("portal.tabs")}>
        <div role="tablist" aria-label={t("portal.tabs")} className="td-tabs td-portal-tabs">
          {tabs.map((tab, index) => (
            <button
              key={tab.id}
              id={`${base}-${tab.id}`}
              role="tab"
              type="button"
              aria-selected={tab.id === active?.id}
              aria-controls={`${base}-panel`}
              tabIndex={tab.id === active?.id ? 0 : -1}
              className="td-tab"
              onClick={() => select(tab.id)}
              onKeyDown={(e) => onKey(e, index)}
            >
              {t(tab.label)}
            </button>
          ))}
        </div>
      </nav>
      <main className="td-portal-main">
        <div id={`${base}-panel`} role="tabpanel" aria-labelledby={active === undefined ? undefined : `${base}-${active.id}`}>
          {/* The section's heading, for the outline: headings below it (a request's title, a list
              item's) then follow the app's name in order. */}
          {active === undefined ? null : <h2 className="td-visually-hidden">{t(active.label)}</h2>}
          {profileId !== null ? (
            <div className="td-detail">
              <button type="button" className="td-link" onClick={back}>
                ← {t("common.back")}
              </button>
              <UserProfile userId={profileId} fallbackName={profileName} />
            </div>
          ) : null}
          {profileId === null && active?.id === "roadmap" ? (
            <RoadmapBoard
              column={route.screen === "roadmap" ? route.column : undefined}
              onColumnChange={(column) => navigate({ screen: "roadmap", column })}
              onOpenRequest={(item) => navigate({ screen: "request", id: item.id }, item.title)}
            />
          ) : null}
          {/* Hidden rather than unmounted while a profile is open, so Back returns to the same request. */}
          {active?.id === "requests" ? (
            <div hidden={profileId !== null}>
              <FeatureRequestList
                {...(props.requestFilters === undefined
                  ? {}
                  : { board: props.requestFilters.board ?? null, tags: props.requestFilters.tags ?? [], showBoardAndTagFilters: false })}
                onOpenProfile={openProfile}
                openRequestId={route.screen === "request" ? route.id : profileId !== null && lastRequest !== null ? lastRequest : null}
                onOpenRequest={openRequest}
              />
            </div>
          ) : null}
          {profileId === null && active?.id === "changelog" ? (
            <WhatsNew releaseId={route.screen === "release" ? route.id : undefined} />
          ) : null}
          {/* The portal serves every platform of the app, so the person typing says which one. */}
          {profileId === null && active?.id === "feedback" ? <FeedbackComposer showPlatformPicker /> : null}
        </div>
      </main>
      {config !== null && config.hideSiteBranding !== true ? (
        <footer className="td-portal-footer td-small td-muted">
          {props.brandingHref ? (
            <a href={props.brandingHref} target="_blank" rel="noopener noreferrer">
              {t("portal.poweredBy")}
            </a>
          ) : (
            t("portal.poweredBy")
          )}
        </footer>
      ) : null}
      {props.showOverlay === false ? null : <ChangelogOverlay onlyIfUnseen />}
    </TidingsScreen>
  );
}
